import { type Answer, apiGet, apiRequest } from '@client/lib/api-client';
import { apiPath, callPaths } from '@shared/call-paths';
import { queryOptions } from '@tanstack/react-query';

export const myOrdersQueryOptions = (email: string) =>
  queryOptions({
    queryKey: ['orders', email],
    queryFn: () =>
      apiGet<Answer<'myOrders'>>(
        `${apiPath(callPaths.myOrders)}?email=${encodeURIComponent(email)}&limit=100`,
      ),
  });

export const deleteOrder = async (id: string) =>
  (
    await apiRequest<Answer<'deleteOrder'>>(
      `${apiPath(callPaths.deleteOrder)}?id=${encodeURIComponent(id)}`,
      {
        method: 'DELETE',
      },
    )
  ).data;
