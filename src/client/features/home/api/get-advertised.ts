import { call } from '@client/lib/api-client';
import { queryRoots } from '@client/lib/query-keys';
import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';

export const getAdvertised = () => call('listAdvertised');

export const advertisedQueryOptions = () =>
  queryOptions({ queryKey: [...queryRoots.products, 'advertised'], queryFn: getAdvertised });

export const useAdvertised = () => useSuspenseQuery(advertisedQueryOptions());
