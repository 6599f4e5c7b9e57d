import { type Answer, apiRequest } from '@client/lib/api-client';
import { apiPath, callRoutes } from '@shared/call-routes';
import { infiniteQueryOptions } from '@tanstack/react-query';

/** Addresses that may not have an account, newest first, a page at a time. */
export const bansQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: ['users', 'banned'],
    queryFn: ({ pageParam }) => apiRequest<Answer<'listBans'>>(pageParam),
    initialPageParam: apiPath(callRoutes.listBans.path),
    getNextPageParam: (last) => last.next ?? undefined,
  });

/** Bans an address; its account, if it has one, goes with it. */
export const banEmail = async (email: string) =>
  (
    await apiRequest<Answer<'banEmail'>>(apiPath(callRoutes.banEmail.path), {
      method: 'POST',
      body: { email },
    })
  ).data;

export const liftBan = async (email: string) =>
  (
    await apiRequest<Answer<'liftBan'>>(
      `${apiPath(callRoutes.liftBan.path)}?email=${encodeURIComponent(email)}`,
      { method: 'DELETE' },
    )
  ).data;
