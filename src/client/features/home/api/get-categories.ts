import { type Answer, apiGet } from '@client/lib/api-client';
import { apiPath, callPaths } from '@shared/call-paths';
import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';

export const getCategories = () =>
  apiGet<Answer<'listCategories'>>(apiPath(callPaths.listCategories));

export const categoriesQueryOptions = () =>
  queryOptions({
    queryKey: ['categories'],
    queryFn: getCategories,
    staleTime: Number.POSITIVE_INFINITY,
  });

export const useCategories = () => useSuspenseQuery(categoriesQueryOptions());
