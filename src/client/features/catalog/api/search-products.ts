import { callPage } from '@client/lib/api-client';
import { queryRoots } from '@client/lib/query-keys';
import { infiniteQueryOptions, useSuspenseInfiniteQuery } from '@tanstack/react-query';
import type { SearchInput } from '../phone-filters';

/**
 * The phones a search finds, a page at a time in its sort; the first page counts them. Keyed by
 * the call's query, so one list, however its URL was written, is fetched once, and held for the
 * cache's time: going back to a list that had "Show more" pressed shows every page it had.
 */
export const searchProductsQueryOptions = (query: SearchInput) =>
  infiniteQueryOptions({
    queryKey: [...queryRoots.products, 'search', query],
    queryFn: ({ pageParam }) => callPage('searchProducts', { query }, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
  });

export const useSearchProducts = (query: SearchInput) =>
  useSuspenseInfiniteQuery(searchProductsQueryOptions(query));
