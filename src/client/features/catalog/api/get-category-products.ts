import { type Answer, apiRequest } from '@client/lib/api-client';
import { apiPath, callRoutes } from '@shared/call-routes';
import { infiniteQueryOptions, useSuspenseInfiniteQuery } from '@tanstack/react-query';

/** Pages follow the server's `Link: rel="next"` URL. */
export const getCategoryProducts = (url: string) => apiRequest<Answer<'categoryProducts'>>(url);

export const categoryProductsQueryOptions = (categoryId: string) =>
  infiniteQueryOptions({
    queryKey: ['category', categoryId, 'products'],
    queryFn: ({ pageParam }) => getCategoryProducts(pageParam),
    initialPageParam: apiPath(callRoutes.categoryProducts.path, { id: categoryId }),
    getNextPageParam: (last) => last.next ?? undefined,
  });

export const useCategoryProducts = (categoryId: string) =>
  useSuspenseInfiniteQuery(categoryProductsQueryOptions(categoryId));
