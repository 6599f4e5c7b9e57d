import { callPage } from '@client/lib/api-client';
import { queryRoots } from '@client/lib/query-keys';
import type { CategoryCode } from '@shared/constants';
import { infiniteQueryOptions, useSuspenseInfiniteQuery } from '@tanstack/react-query';

/** A brand's phones, newest first; each next page is the server's `Link: rel="next"` URL. */
export const categoryProductsQueryOptions = (categoryId: CategoryCode) =>
  infiniteQueryOptions({
    queryKey: [...queryRoots.products, 'category', categoryId],
    queryFn: ({ pageParam }) =>
      callPage('categoryProducts', { params: { id: categoryId } }, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
  });

export const useCategoryProducts = (categoryId: CategoryCode) =>
  useSuspenseInfiniteQuery(categoryProductsQueryOptions(categoryId));
