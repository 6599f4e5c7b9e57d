import { type Answer, call } from '@client/lib/api-client';
import type { MutationConfig } from '@client/lib/query-client';
import { queryRoots } from '@client/lib/query-keys';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

export const myOrdersQueryOptions = (email: string) =>
  queryOptions({
    queryKey: [...queryRoots.orders, email],
    queryFn: () => call('myOrders', { query: { email, limit: 100 } }),
  });

export const deleteOrder = (id: string) => call('deleteOrder', { query: { id } });

export function useDeleteOrder(
  email: string,
  { onSuccess, ...config }: MutationConfig<Answer<'deleteOrder'>, string> = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: deleteOrder,
    onSuccess: async (...args) => {
      await onSuccess?.(...args);
      await queryClient.invalidateQueries({ queryKey: myOrdersQueryOptions(email).queryKey });
    },
  });
}
