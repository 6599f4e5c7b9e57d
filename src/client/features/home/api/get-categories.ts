import { apiGet } from '@client/lib/api-client';
import { apiPath, calls } from '@shared/api';
import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';

export const getCategories = () =>
  apiGet(apiPath(calls.listCategories.path), calls.listCategories.response);

export const categoriesQueryOptions = () =>
  queryOptions({
    queryKey: ['categories'],
    queryFn: getCategories,
    staleTime: Number.POSITIVE_INFINITY,
  });

export const useCategories = () => useSuspenseQuery(categoriesQueryOptions());
