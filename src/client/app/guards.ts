/** Route guards: the dashboard needs a signed-in user; admin pages need an admin. */

import { signInPathFrom } from '@client/lib/auth/redirect';
import { adminCheckQueryOptions, loadRole, sellerCheckQueryOptions } from '@client/lib/auth/roles';
import { session } from '@client/lib/auth/session';
import { ensureCurrent } from '@client/lib/ensure-current';
import type { QueryClient } from '@tanstack/react-query';
import { type LoaderFunctionArgs, redirect } from 'react-router';

const pathOf = (request: Request) => {
  const url = new URL(request.url);
  return `${url.pathname}${url.search}`;
};

/** Signed-out visitors go to /signin, remembering where they were going. */
export async function requireUser({ request }: LoaderFunctionArgs) {
  const user = await session.currentUser();
  if (!user) throw redirect(signInPathFrom(pathOf(request)));
  return user;
}

/** Loads the role checks with the dashboard, so its spinner is brief. */
export const dashboardLoader = (queryClient: QueryClient) => async (args: LoaderFunctionArgs) => {
  const user = await requireUser(args);
  void queryClient.prefetchQuery(adminCheckQueryOptions(user.email));
  void queryClient.prefetchQuery(sellerCheckQueryOptions(user.email));
  return null;
};

/** Non-admins are sent to /signin (spec section 2). */
export const adminLoader = (queryClient: QueryClient) => async (args: LoaderFunctionArgs) => {
  const user = await requireUser(args);
  const { isAdmin } = await ensureCurrent(queryClient, adminCheckQueryOptions(user.email));
  if (!isAdmin) throw redirect('/signin');
  return null;
};

/** Seller pages: anyone else goes to their own dashboard. */
export const sellerLoader = (queryClient: QueryClient) => async (args: LoaderFunctionArgs) => {
  const user = await requireUser(args);
  const { isSeller } = await ensureCurrent(queryClient, sellerCheckQueryOptions(user.email));
  if (!isSeller) throw redirect('/dashboard');
  return null;
};

/** Buyer pages (issue 33's saved searches): a seller or admin goes to their own dashboard. */
export const buyerLoader = (queryClient: QueryClient) => async (args: LoaderFunctionArgs) => {
  const user = await requireUser(args);
  if ((await loadRole(queryClient, user.email)) !== 'buyer') throw redirect('/dashboard');
  return null;
};
