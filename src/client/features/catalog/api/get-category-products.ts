import { apiRequest } from '@client/lib/api-client';
import { apiPath, calls } from '@shared/api';
import { infiniteQueryOptions, useSuspenseInfiniteQuery } from '@tanstack/react-query';

/** Pages follow the server's `Link: rel="next"` URL. */
export const getCategoryProducts = (url: string) =>
  apiRequest(url, calls.categoryProducts.response);

export const categoryProductsQueryOptions = (categoryId: string) =>
  infiniteQueryOptions({
    queryKey: ['category', categoryId, 'products'],
    queryFn: ({ pageParam }) => getCategoryProducts(pageParam),
    initialPageParam: apiPath(calls.categoryProducts.path, { id: categoryId }),
    getNextPageParam: (last) => last.next ?? undefined,
  });

export const useCategoryProducts = (categoryId: string) =>
  useSuspenseInfiniteQuery(categoryProductsQueryOptions(categoryId));
