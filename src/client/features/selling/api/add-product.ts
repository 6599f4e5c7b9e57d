import { apiRequest } from '@client/lib/api-client';
import { apiPath, calls, type ProductInput } from '@shared/api';

export const addProduct = async (product: ProductInput) =>
  (
    await apiRequest(apiPath(calls.addProduct.path), calls.addProduct.response, {
      method: 'POST',
      body: product,
    })
  ).data;
