import { type Answer, apiRequest } from '@client/lib/api-client';
import { apiPath, callPaths } from '@shared/call-paths';

export const addToWishList = async (productId: string) =>
  (
    await apiRequest<Answer<'addToWishList'>>(apiPath(callPaths.addToWishList), {
      method: 'POST',
      body: { productId },
    })
  ).data;

export const bookProduct = async (booking: {
  productId: string;
  location: string;
  number: string;
}) =>
  (
    await apiRequest<Answer<'book'>>(apiPath(callPaths.book), {
      method: 'POST',
      body: booking,
    })
  ).data;
