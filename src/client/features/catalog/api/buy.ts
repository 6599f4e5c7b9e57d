import { type Answer, apiRequest } from '@client/lib/api-client';
import { apiPath, callRoutes } from '@shared/call-routes';

export const addToWishList = async (productId: string) =>
  (
    await apiRequest<Answer<'addToWishList'>>(apiPath(callRoutes.addToWishList.path), {
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
    await apiRequest<Answer<'book'>>(apiPath(callRoutes.book.path), {
      method: 'POST',
      body: booking,
    })
  ).data;
