import { type Answer, type CallInput, call } from '@client/lib/api-client';
import type { MutationConfig } from '@client/lib/query-client';
import { queryRoots } from '@client/lib/query-keys';
import { useRefreshingMutation } from '@client/lib/use-refreshing-mutation';
import { queryOptions } from '@tanstack/react-query';

/**
 * The buyer's saved searches with their counts (issue 33). An alert or a phone's change refreshes
 * them live (their root shows both); coming back to the tab reads them again in any case.
 */
export const savedSearchesQueryOptions = (email: string) =>
  queryOptions({
    queryKey: [...queryRoots.savedSearches, 'list', email],
    queryFn: () => call('savedSearches'),
    refetchOnWindowFocus: 'always',
  });

export type SavedSearchEdit = CallInput<'editSavedSearch'>['body'];

export const useEditSavedSearch = (
  email: string,
  config?: MutationConfig<Answer<'editSavedSearch'>, { id: string; edit: SavedSearchEdit }>,
) =>
  useRefreshingMutation(
    ({ id, edit }: { id: string; edit: SavedSearchEdit }) =>
      call('editSavedSearch', { params: { id }, body: edit }),
    () => [savedSearchesQueryOptions(email).queryKey],
    config,
  );

export const useDeleteSavedSearch = (
  email: string,
  config?: MutationConfig<Answer<'deleteSavedSearch'>, string>,
) =>
  useRefreshingMutation(
    (id: string) => call('deleteSavedSearch', { params: { id } }),
    () => [savedSearchesQueryOptions(email).queryKey],
    config,
  );

/** The buyer opens a saved search: its "new" count starts again from nought. */
export const seeSavedSearch = (id: string) => call('seeSavedSearch', { params: { id } });
