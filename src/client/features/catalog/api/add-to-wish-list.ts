import { call } from '@client/lib/api-client';

export const addToWishList = (productId: string) => call('addToWishList', { body: { productId } });
