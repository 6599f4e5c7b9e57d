import { type Answer, apiRequest } from '@client/lib/api-client';
import { apiPath, callPaths } from '@shared/call-paths';
import { infiniteQueryOptions } from '@tanstack/react-query';

/** Addresses that may not have an account, newest first, a page at a time. */
export const bansQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: ['users', 'banned'],
    queryFn: ({ pageParam }) => apiRequest<Answer<'listBans'>>(pageParam),
    initialPageParam: apiPath(callPaths.listBans),
    getNextPageParam: (last) => last.next ?? undefined,
  });

/** Bans an address; its account, if it has one, goes with it. */
export const banEmail = async (email: string) =>
  (
    await apiRequest<Answer<'banEmail'>>(apiPath(callPaths.banEmail), {
      method: 'POST',
      body: { email },
    })
  ).data;

export const liftBan = async (email: string) =>
  (
    await apiRequest<Answer<'liftBan'>>(
      `${apiPath(callPaths.liftBan)}?email=${encodeURIComponent(email)}`,
      { method: 'DELETE' },
    )
  ).data;
