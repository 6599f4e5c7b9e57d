import { type Answer, call } from '@client/lib/api-client';
import type { MutationConfig } from '@client/lib/query-client';
import { queryRoots } from '@client/lib/query-keys';
import { useRefreshingMutation } from '@client/lib/use-refreshing-mutation';
import { queryOptions } from '@tanstack/react-query';

export const myOrdersQueryOptions = (email: string) =>
  queryOptions({
    queryKey: [...queryRoots.orders, email],
    queryFn: () => call('myOrders', { query: { email, limit: 100 } }),
  });

export const deleteOrder = (id: string) => call('deleteOrder', { query: { id } });

export const useDeleteOrder = (
  email: string,
  config?: MutationConfig<Answer<'deleteOrder'>, string>,
) => useRefreshingMutation(deleteOrder, () => [myOrdersQueryOptions(email).queryKey], config);
