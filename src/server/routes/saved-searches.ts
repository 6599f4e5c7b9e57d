/**
 * Saved searches (issue 33): a buyer's own, each reached only by its owner (another's answers
 * 404, as a missing one does); and for a seller, how many buyers wait for a phone like theirs.
 */
import { callerOf } from '../plugins/auth';
import {
  deleteSavedSearch,
  editSavedSearch,
  listSavedSearches,
  saveSearch,
  seeSavedSearch,
  waitingBuyers,
} from '../repositories/saved-searches';
import type { SavedSearchIndex } from '../saved-searches/saved-search-index';
import { contractRoutes } from './contract-routes';

export default contractRoutes<{ index: SavedSearchIndex; kick: () => void }>(
  (route, app, { index, kick }) => {
    route('savedSearches', async (request) =>
      listSavedSearches(app.db, callerOf(request).id, app.searchCounts),
    );

    route('saveSearch', { limit: { perMinute: 30 } }, async (request) => ({
      insertedId: await saveSearch(app.db, callerOf(request).id, request.body),
    }));

    route('editSavedSearch', { limit: { perMinute: 60 } }, async (request) => {
      const edited = await editSavedSearch(
        app.db,
        callerOf(request).id,
        request.params.id,
        request.body,
        app.searchCounts,
      );
      // Resumed: what was queued meanwhile is matched now rather than at the next round.
      kick();
      return edited;
    });

    route('deleteSavedSearch', async (request) => ({
      deletedCount: await deleteSavedSearch(app.db, callerOf(request).id, request.params.id),
    }));

    route('seeSavedSearch', async (request) => {
      await seeSavedSearch(app.db, callerOf(request).id, request.params.id);
      return { acknowledged: true };
    });

    // Asked as the seller types (debounced): generous, but not a way to map every buyer's wishes.
    route('waitingBuyers', { limit: { perMinute: 60 } }, async (request) => ({
      buyers: await waitingBuyers(app.db, index, callerOf(request), request.query),
    }));
  },
);
