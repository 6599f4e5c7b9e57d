import { type Answer, apiGet } from '@client/lib/api-client';
import { apiPath, callPaths } from '@shared/call-paths';
import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';

export const getAdvertised = () =>
  apiGet<Answer<'listAdvertised'>>(apiPath(callPaths.listAdvertised));

export const advertisedQueryOptions = () =>
  queryOptions({ queryKey: ['advertise'], queryFn: getAdvertised });

export const useAdvertised = () => useSuspenseQuery(advertisedQueryOptions());
