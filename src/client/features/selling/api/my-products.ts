import { type Answer, call } from '@client/lib/api-client';
import type { MutationConfig } from '@client/lib/query-client';
import { queryRoots } from '@client/lib/query-keys';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

export const myProductsQueryOptions = (email: string) =>
  queryOptions({
    queryKey: [...queryRoots.products, 'seller', email],
    queryFn: () => call('myProducts', { query: { email, limit: 100 } }),
  });

export const deleteProduct = (id: string) => call('deleteProduct', { query: { id } });

/** Deleting a phone takes it off its brand's page and the advertised list too: every product list refreshes. */
export function useDeleteProduct({
  onSuccess,
  ...config
}: MutationConfig<Answer<'deleteProduct'>, string> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: deleteProduct,
    onSuccess: async (...args) => {
      await onSuccess?.(...args);
      await queryClient.invalidateQueries({ queryKey: queryRoots.products });
    },
  });
}

export const advertiseProduct = (id: string) => call('advertise', { query: { id } });

/** An advertised phone shows on the home page: every product list refreshes. */
export function useAdvertiseProduct({
  onSuccess,
  ...config
}: MutationConfig<Answer<'advertise'>, string> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: advertiseProduct,
    onSuccess: async (...args) => {
      await onSuccess?.(...args);
      await queryClient.invalidateQueries({ queryKey: queryRoots.products });
    },
  });
}
