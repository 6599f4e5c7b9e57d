import { call } from '@client/lib/api-client';
import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';

export const getCategories = () => call('listCategories');

export const categoriesQueryOptions = () =>
  queryOptions({
    queryKey: ['categories'],
    queryFn: getCategories,
    staleTime: Number.POSITIVE_INFINITY,
  });

export const useCategories = () => useSuspenseQuery(categoriesQueryOptions());
