import { type Answer, apiRequest } from '@client/lib/api-client';
import type { ProductInput } from '@shared/api';
import { apiPath, callPaths } from '@shared/call-paths';

export const addProduct = async (product: ProductInput) =>
  (
    await apiRequest<Answer<'addProduct'>>(apiPath(callPaths.addProduct), {
      method: 'POST',
      body: product,
    })
  ).data;
