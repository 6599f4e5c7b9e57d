import { apiGet } from '@client/lib/api-client';
import { apiPath, calls } from '@shared/api';
import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';

export const getAdvertised = () =>
  apiGet(apiPath(calls.listAdvertised.path), calls.listAdvertised.response);

export const advertisedQueryOptions = () =>
  queryOptions({ queryKey: ['advertise'], queryFn: getAdvertised });

export const useAdvertised = () => useSuspenseQuery(advertisedQueryOptions());
