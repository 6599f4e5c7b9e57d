import { type Answer, apiGet, apiRequest } from '@client/lib/api-client';
import { apiPath, callRoutes } from '@shared/call-routes';
import { queryOptions } from '@tanstack/react-query';

export const myOrdersQueryOptions = (email: string) =>
  queryOptions({
    queryKey: ['orders', email],
    queryFn: () =>
      apiGet<Answer<'myOrders'>>(
        `${apiPath(callRoutes.myOrders.path)}?email=${encodeURIComponent(email)}&limit=100`,
      ),
  });

export const deleteOrder = async (id: string) =>
  (
    await apiRequest<Answer<'deleteOrder'>>(
      `${apiPath(callRoutes.deleteOrder.path)}?id=${encodeURIComponent(id)}`,
      {
        method: 'DELETE',
      },
    )
  ).data;
