import type { QueryClient } from '@tanstack/react-query';
import { accountsQueryOptions } from '../api/users';
import { AccountsPage } from '../components/accounts-page';

export const allBuyersLoader = (queryClient: QueryClient) => async () => {
  await queryClient.ensureInfiniteQueryData(accountsQueryOptions('buyer'));
  return null;
};

export function AllBuyersRoute() {
  return <AccountsPage kind="buyer" />;
}
