import { apiRequest } from '@client/lib/api-client';
import { apiPath, calls } from '@shared/api';

export const addToWishList = async (productId: string) =>
  (
    await apiRequest(apiPath(calls.addToWishList.path), calls.addToWishList.response, {
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
    await apiRequest(apiPath(calls.book.path), calls.book.response, {
      method: 'POST',
      body: booking,
    })
  ).data;
