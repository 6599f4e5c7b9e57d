import { call } from '@client/lib/api-client';
import { queryRoots } from '@client/lib/query-keys';
import { queryOptions, useQuery } from '@tanstack/react-query';

/** Up to six phones for sale like the phone `id`, best first (issue 33). */
export const similarProductsQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...queryRoots.products, 'similar', id],
    queryFn: () => call('similarProducts', { params: { id } }),
  });

/** The phones like `id`; never suspends the page (its loader fetched them for the first view). */
export function useSimilarProducts(id: string) {
  const { data = [] } = useQuery(similarProductsQueryOptions(id));
  return data;
}
