/** Which services are live (GET /api/config): Google sign-in, payments, images. */
import { queryOptions } from '@tanstack/react-query';
import { call } from './api-client';

export const clientConfigQueryOptions = () =>
  queryOptions({
    queryKey: ['config'],
    queryFn: () => call('config'),
    staleTime: Number.POSITIVE_INFINITY,
  });
