import { call } from '@client/lib/api-client';
import { queryRoots } from '@client/lib/query-keys';
import type { ProductInput } from '@shared/api';
import { useQueryClient } from '@tanstack/react-query';

export const addProduct = (product: ProductInput) => call('addProduct', { body: product });

/**
 * Lists a phone, then refreshes every product list, so the seller's own and its brand's page
 * show it. Not a `useMutation`: the form's `isSubmitting` already covers the upload and this.
 */
export function useAddProduct() {
  const queryClient = useQueryClient();
  return async (product: ProductInput) => {
    const answer = await addProduct(product);
    await queryClient.invalidateQueries({ queryKey: queryRoots.products });
    return answer;
  };
}
