import type { QueryClient } from '@tanstack/react-query';
import { accountsQueryOptions } from '../api/users';
import { AccountsPage } from '../components/accounts-page';

export const allSellersLoader = (queryClient: QueryClient) => async () => {
  await queryClient.ensureInfiniteQueryData(accountsQueryOptions('seller'));
  return null;
};

export function AllSellersRoute() {
  return <AccountsPage kind="seller" />;
}
