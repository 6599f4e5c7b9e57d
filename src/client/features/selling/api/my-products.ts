import { type Answer, call } from '@client/lib/api-client';
import type { MutationConfig } from '@client/lib/query-client';
import { queryRoots } from '@client/lib/query-keys';
import { useRefreshingMutation } from '@client/lib/use-refreshing-mutation';
import { queryOptions } from '@tanstack/react-query';

export const myProductsQueryOptions = (email: string) =>
  queryOptions({
    queryKey: [...queryRoots.products, 'seller', email],
    queryFn: () => call('myProducts', { query: { email, limit: 100 } }),
  });

export const deleteProduct = (id: string) => call('deleteProduct', { query: { id } });

/** Deleting a phone takes it off its brand's page and the advertised list too: every product list refreshes. */
export const useDeleteProduct = (config?: MutationConfig<Answer<'deleteProduct'>, string>) =>
  useRefreshingMutation(deleteProduct, () => [queryRoots.products], config);

export const advertiseProduct = (id: string) => call('advertise', { query: { id } });

/** An advertised phone shows on the home page: every product list refreshes. */
export const useAdvertiseProduct = (config?: MutationConfig<Answer<'advertise'>, string>) =>
  useRefreshingMutation(advertiseProduct, () => [queryRoots.products], config);
