import type { Product } from '@shared/entities';

/** What a signed-out visitor was doing to a phone, done again once signed in. */
export type PhoneAction = 'book' | 'wish';
export const PHONE_ACTIONS: readonly PhoneAction[] = ['book', 'wish'];

/** The phone's brand page, asking it to reopen the booking form or add the phone to the wish list. */
export const phoneActionPath = (
  product: Pick<Product, '_id' | 'categoryId'>,
  action: PhoneAction,
) => `/category/${product.categoryId}?${action}=${encodeURIComponent(product._id)}`;
