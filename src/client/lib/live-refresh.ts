/**
 * One rule for what a page shows (issue 31, decision 043): each event of the live stream names
 * a subject, and every cached view that shows that subject is marked stale. The views on screen
 * read again at once (they update in place); the others read again when they are next shown
 * (`ensureCurrent` in their loaders). Pages do not subscribe on their own.
 */
import { isLiveSubject, LIVE_RECONNECTED, type LiveSubject } from '@shared/live';
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { subscribeLive } from './live-events';
import { type QueryRoot, queryRoots, ROOT_SHOWS } from './query-keys';

const roots = Object.keys(queryRoots) as QueryRoot[];

/** The query roots whose views show `subject`. */
export const rootsShowing = (subject: LiveSubject): QueryKey[] =>
  roots.filter((root) => ROOT_SHOWS[root].includes(subject)).map((root) => queryRoots[root]);

/** Every root some event refreshes: after a lost stream, any of them may have changed. */
const liveRoots = roots
  .filter((root) => ROOT_SHOWS[root].length > 0)
  .map((root) => queryRoots[root]);

/** Marks stale what the event `name` says changed; the views on screen read again. */
export async function refreshFor(queryClient: QueryClient, name: string): Promise<void> {
  const stale =
    name === LIVE_RECONNECTED ? liveRoots : isLiveSubject(name) ? rootsShowing(name) : [];
  await Promise.all(stale.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}

/** The signed-in page's one live stream, for as long as the component that calls it is shown. */
export function useLiveRefresh(): void {
  const queryClient = useQueryClient();
  useEffect(() => subscribeLive((name) => void refreshFor(queryClient, name)), [queryClient]);
}
