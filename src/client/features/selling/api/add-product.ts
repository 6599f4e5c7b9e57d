import { type Answer, apiRequest } from '@client/lib/api-client';
import type { ProductInput } from '@shared/api';
import { apiPath, callRoutes } from '@shared/call-routes';

export const addProduct = async (product: ProductInput) =>
  (
    await apiRequest<Answer<'addProduct'>>(apiPath(callRoutes.addProduct.path), {
      method: 'POST',
      body: product,
    })
  ).data;
