/**
 * Where each call of `api.ts` lives, without its schemas: the browser builds URLs from this
 * module alone, so a first visit does not download zod and every call's schema (see
 * docs/decisions/014-performance-bench.md). `calls` in `api.ts` takes its paths from here.
 */

export const API_BASE = '/api';

export const callPaths = {
  adminCheck: '/users/admin/:email',
  sellerCheck: '/users/seller/:email',
  listBuyers: '/users/buyer',
  listSellers: '/users/seller',
  deleteUser: '/users',
  verifySeller: '/users/:email',
  listBans: '/users/banned',
  banEmail: '/users/banned',
  liftBan: '/users/banned',
  saveUser: '/users',
  getToken: '/jwt',
  myProducts: '/products',
  addProduct: '/products',
  deleteProduct: '/products',
  listCategories: '/category',
  categoryProducts: '/category/:id',
  listAdvertised: '/advertise',
  advertise: '/advertise',
  wishList: '/wishlist',
  addToWishList: '/wishlist',
  removeFromWishList: '/wishlist/:id',
  myOrders: '/order',
  book: '/order',
  deleteOrder: '/order',
  createPaymentIntent: '/create-payment-intent',
  recordPayment: '/payment',
  paymentOrder: '/payment/:id',
  uploadImage: '/images',
  confirmTestPayment: '/test-payments/confirm',
  health: '/health',
  config: '/config',
  vitals: '/vitals',
} as const;

export type CallName = keyof typeof callPaths;

/** Builds the path of a call, e.g. `apiPath('/category/:id', { id: '01' })` → `/api/category/01`. */
export function apiPath(path: string, params: Record<string, string> = {}): string {
  return (
    API_BASE +
    path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
      const value = params[name];
      if (value === undefined) throw new Error(`Missing path parameter ${name}`);
      return encodeURIComponent(value);
    })
  );
}
