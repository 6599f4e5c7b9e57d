import { call } from '@client/lib/api-client';
import { queryRoots } from '@client/lib/query-keys';
import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';

/** A seller's public profile: name, verified, member since, rating and counts. */
export const sellerQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...queryRoots.products, 'seller', id],
    queryFn: () => call('seller', { params: { id } }),
  });

export const useSeller = (id: string) => useSuspenseQuery(sellerQueryOptions(id));
