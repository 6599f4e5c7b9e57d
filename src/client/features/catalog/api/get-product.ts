import { call } from '@client/lib/api-client';
import { queryRoots } from '@client/lib/query-keys';
import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';

/** A phone's own page: the phone, sold or not, and its seller's profile. */
export const productQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...queryRoots.products, 'product', id],
    queryFn: () => call('product', { params: { id } }),
  });

export const useProduct = (id: string) => useSuspenseQuery(productQueryOptions(id));
