import { call } from '@client/lib/api-client';
import { queryRoots } from '@client/lib/query-keys';
import { queryOptions, useQuery } from '@tanstack/react-query';

/**
 * What sells (issue 35): the seller's own figures. Under the products root, so whatever changes
 * a listing (a delete, a sale) refreshes them with My Products.
 */
export const whatSellsQueryOptions = () =>
  queryOptions({
    queryKey: [...queryRoots.products, 'what-sells'],
    queryFn: () => call('whatSells'),
  });

/** Not in the page's loader: My Products shows at once, its figures when they come. */
export const useWhatSells = () => useQuery(whatSellsQueryOptions());
