import { call } from '@client/lib/api-client';
import { queryRoots } from '@client/lib/query-keys';
import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';

export const getCategories = () => call('listCategories');

export const categoriesQueryOptions = () =>
  queryOptions({
    queryKey: queryRoots.categories,
    queryFn: getCategories,
    staleTime: Number.POSITIVE_INFINITY,
  });

export const useCategories = () => useSuspenseQuery(categoriesQueryOptions());
