import { apiGet, apiRequest } from '@client/lib/api-client';
import { apiPath, calls } from '@shared/api';
import { queryOptions } from '@tanstack/react-query';

export const myOrdersQueryOptions = (email: string) =>
  queryOptions({
    queryKey: ['orders', email],
    queryFn: () =>
      apiGet(
        `${apiPath(calls.myOrders.path)}?email=${encodeURIComponent(email)}&limit=100`,
        calls.myOrders.response,
      ),
  });

export const deleteOrder = async (id: string) =>
  (
    await apiRequest(
      `${apiPath(calls.deleteOrder.path)}?id=${encodeURIComponent(id)}`,
      calls.deleteOrder.response,
      {
        method: 'DELETE',
      },
    )
  ).data;
