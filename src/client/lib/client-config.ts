/** Which services are live (GET /api/config): Google sign-in, payments, images. */
import { apiPath, calls } from '@shared/api';
import { queryOptions } from '@tanstack/react-query';
import { apiGet } from './api-client';

export const clientConfigQueryOptions = () =>
  queryOptions({
    queryKey: ['config'],
    queryFn: () => apiGet(apiPath(calls.config.path), calls.config.response),
    staleTime: Number.POSITIVE_INFINITY,
  });
