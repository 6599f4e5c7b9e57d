import { type Answer, apiGet } from '@client/lib/api-client';
import { apiPath, callRoutes } from '@shared/call-routes';
import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';

export const getAdvertised = () =>
  apiGet<Answer<'listAdvertised'>>(apiPath(callRoutes.listAdvertised.path));

export const advertisedQueryOptions = () =>
  queryOptions({ queryKey: ['advertise'], queryFn: getAdvertised });

export const useAdvertised = () => useSuspenseQuery(advertisedQueryOptions());
