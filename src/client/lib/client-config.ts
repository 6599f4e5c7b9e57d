/** Which services are live (GET /api/config): Google sign-in, payments, images. */
import { apiPath, callRoutes } from '@shared/call-routes';
import { queryOptions } from '@tanstack/react-query';
import { type Answer, apiGet } from './api-client';

export const clientConfigQueryOptions = () =>
  queryOptions({
    queryKey: ['config'],
    queryFn: () => apiGet<Answer<'config'>>(apiPath(callRoutes.config.path)),
    staleTime: Number.POSITIVE_INFINITY,
  });
