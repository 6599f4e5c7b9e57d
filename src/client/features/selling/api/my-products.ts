import { apiGet, apiRequest } from '@client/lib/api-client';
import { apiPath, calls } from '@shared/api';
import { queryOptions } from '@tanstack/react-query';

export const myProductsQueryOptions = (email: string) =>
  queryOptions({
    queryKey: ['products', email],
    queryFn: () =>
      apiGet(
        `${apiPath(calls.myProducts.path)}?email=${encodeURIComponent(email)}&limit=100`,
        calls.myProducts.response,
      ),
  });

export const deleteProduct = async (id: string) =>
  (
    await apiRequest(
      `${apiPath(calls.deleteProduct.path)}?id=${encodeURIComponent(id)}`,
      calls.deleteProduct.response,
      {
        method: 'DELETE',
      },
    )
  ).data;

export const advertiseProduct = async (id: string) =>
  (
    await apiRequest(
      `${apiPath(calls.advertise.path)}?id=${encodeURIComponent(id)}`,
      calls.advertise.response,
      {
        method: 'POST',
      },
    )
  ).data;
