import { type Answer, apiGet } from '@client/lib/api-client';
import { apiPath, callRoutes } from '@shared/call-routes';
import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';

export const getCategories = () =>
  apiGet<Answer<'listCategories'>>(apiPath(callRoutes.listCategories.path));

export const categoriesQueryOptions = () =>
  queryOptions({
    queryKey: ['categories'],
    queryFn: getCategories,
    staleTime: Number.POSITIVE_INFINITY,
  });

export const useCategories = () => useSuspenseQuery(categoriesQueryOptions());
