import { type Answer, apiGet, apiRequest } from '@client/lib/api-client';
import { apiPath, callRoutes } from '@shared/call-routes';
import { queryOptions } from '@tanstack/react-query';

export const myProductsQueryOptions = (email: string) =>
  queryOptions({
    queryKey: ['products', email],
    queryFn: () =>
      apiGet<Answer<'myProducts'>>(
        `${apiPath(callRoutes.myProducts.path)}?email=${encodeURIComponent(email)}&limit=100`,
      ),
  });

export const deleteProduct = async (id: string) =>
  (
    await apiRequest<Answer<'deleteProduct'>>(
      `${apiPath(callRoutes.deleteProduct.path)}?id=${encodeURIComponent(id)}`,
      {
        method: 'DELETE',
      },
    )
  ).data;

export const advertiseProduct = async (id: string) =>
  (
    await apiRequest<Answer<'advertise'>>(
      `${apiPath(callRoutes.advertise.path)}?id=${encodeURIComponent(id)}`,
      {
        method: 'POST',
      },
    )
  ).data;
