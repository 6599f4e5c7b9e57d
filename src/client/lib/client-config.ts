/** Which services are live (GET /api/config): Google sign-in, payments, images. */
import { apiPath, callPaths } from '@shared/call-paths';
import { queryOptions } from '@tanstack/react-query';
import { type Answer, apiGet } from './api-client';

export const clientConfigQueryOptions = () =>
  queryOptions({
    queryKey: ['config'],
    queryFn: () => apiGet<Answer<'config'>>(apiPath(callPaths.config)),
    staleTime: Number.POSITIVE_INFINITY,
  });
