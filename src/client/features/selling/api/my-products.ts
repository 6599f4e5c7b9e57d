import { type Answer, apiGet, apiRequest } from '@client/lib/api-client';
import { apiPath, callPaths } from '@shared/call-paths';
import { queryOptions } from '@tanstack/react-query';

export const myProductsQueryOptions = (email: string) =>
  queryOptions({
    queryKey: ['products', email],
    queryFn: () =>
      apiGet<Answer<'myProducts'>>(
        `${apiPath(callPaths.myProducts)}?email=${encodeURIComponent(email)}&limit=100`,
      ),
  });

export const deleteProduct = async (id: string) =>
  (
    await apiRequest<Answer<'deleteProduct'>>(
      `${apiPath(callPaths.deleteProduct)}?id=${encodeURIComponent(id)}`,
      {
        method: 'DELETE',
      },
    )
  ).data;

export const advertiseProduct = async (id: string) =>
  (
    await apiRequest<Answer<'advertise'>>(
      `${apiPath(callPaths.advertise)}?id=${encodeURIComponent(id)}`,
      {
        method: 'POST',
      },
    )
  ).data;
