/**
 * Where each call of `api.ts` lives and with which method, without its schemas: the browser
 * builds requests from this module alone, so a first visit does not download zod and every
 * call's schema (see docs/decisions/014-performance-bench.md). `calls` in `api.ts` takes its
 * method and path from here, and the server registers its routes from `calls`.
 */

export const API_BASE = '/api';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

const route = <const M extends Method, const P extends string>(method: M, path: P) => ({
  method,
  path,
});

export const callRoutes = {
  adminCheck: route('GET', '/users/admin/:email'),
  sellerCheck: route('GET', '/users/seller/:email'),
  listBuyers: route('GET', '/users/buyer'),
  listSellers: route('GET', '/users/seller'),
  deleteUser: route('DELETE', '/users'),
  verifySeller: route('PUT', '/users/:email'),
  unverifySeller: route('DELETE', '/users/:email/verified'),
  listBans: route('GET', '/users/banned'),
  banEmail: route('POST', '/users/banned'),
  liftBan: route('DELETE', '/users/banned'),
  saveUser: route('POST', '/users'),
  getToken: route('GET', '/jwt'),
  myProducts: route('GET', '/products'),
  addProduct: route('POST', '/products'),
  deleteProduct: route('DELETE', '/products'),
  listCategories: route('GET', '/category'),
  categoryProducts: route('GET', '/category/:id'),
  listAdvertised: route('GET', '/advertise'),
  searchProducts: route('GET', '/search'),
  product: route('GET', '/products/:id'),
  similarProducts: route('GET', '/products/:id/similar'),
  setProductPhotos: route('PUT', '/products/:id/photos'),
  updateProduct: route('PUT', '/products/:id'),
  withdrawProduct: route('POST', '/products/:id/withdraw'),
  relistProduct: route('POST', '/products/:id/relist'),
  priceGuide: route('GET', '/price-guide'),
  priceHistory: route('GET', '/price-guide/history'),
  whatSells: route('GET', '/what-sells'),
  bulkTemplate: route('GET', '/bulk-uploads/template.csv'),
  bulkUploads: route('GET', '/bulk-uploads'),
  startBulkUpload: route('POST', '/bulk-uploads'),
  bulkUpload: route('GET', '/bulk-uploads/:id'),
  listBulkUpload: route('POST', '/bulk-uploads/:id/listing'),
  listBlockedImeis: route('GET', '/imeis/blocked'),
  blockImei: route('POST', '/imeis/blocked'),
  unblockImei: route('DELETE', '/imeis/blocked/:id'),
  seller: route('GET', '/sellers/:id'),
  sellerListings: route('GET', '/sellers/:id/products'),
  advertise: route('POST', '/advertise'),
  stopAdvertising: route('DELETE', '/advertise'),
  wishList: route('GET', '/wishlist'),
  addToWishList: route('POST', '/wishlist'),
  removeFromWishList: route('DELETE', '/wishlist/:id'),
  myOrders: route('GET', '/order'),
  book: route('POST', '/order'),
  deleteOrder: route('DELETE', '/order'),
  createPaymentIntent: route('POST', '/create-payment-intent'),
  recordPayment: route('POST', '/payment'),
  paymentOrder: route('GET', '/payment/:id'),
  myBookings: route('GET', '/bookings'),
  sale: route('GET', '/orders/:id'),
  cancelSale: route('POST', '/orders/:id/cancel'),
  handOver: route('POST', '/orders/:id/handover'),
  reportProblem: route('POST', '/orders/:id/report'),
  rateSale: route('POST', '/orders/:id/rating'),
  mySales: route('GET', '/sales'),
  listDisputes: route('GET', '/disputes'),
  resolveDispute: route('POST', '/disputes/:id'),
  myPayouts: route('GET', '/payouts'),
  setPayoutAccount: route('PUT', '/payouts/account'),
  payoutOnboarding: route('POST', '/payouts/account/stripe'),
  finance: route('GET', '/finance'),
  financeCsv: route('GET', '/finance.csv'),
  overview: route('GET', '/overview'),
  overviewCsv: route('GET', '/overview.csv'),
  liveEvents: route('GET', '/events'),
  conversations: route('GET', '/conversations'),
  startConversation: route('POST', '/conversations'),
  conversation: route('GET', '/conversations/:id'),
  sendMessage: route('POST', '/conversations/:id/messages'),
  reportMessage: route('POST', '/messages/:id/report'),
  reportedMessages: route('GET', '/messages/reported'),
  notifications: route('GET', '/notifications'),
  unreadNotifications: route('GET', '/notifications/unread'),
  readNotifications: route('POST', '/notifications/read'),
  mailSettings: route('GET', '/mail-settings'),
  saveMailSettings: route('PUT', '/mail-settings'),
  unsubscribe: route('POST', '/mail-settings/unsubscribe'),
  savedSearches: route('GET', '/saved-searches'),
  saveSearch: route('POST', '/saved-searches'),
  editSavedSearch: route('PUT', '/saved-searches/:id'),
  deleteSavedSearch: route('DELETE', '/saved-searches/:id'),
  seeSavedSearch: route('POST', '/saved-searches/:id/seen'),
  waitingBuyers: route('GET', '/saved-searches/waiting'),
  reportListing: route('POST', '/products/:id/reports'),
  reportSeller: route('POST', '/sellers/:id/reports'),
  myReports: route('GET', '/reports'),
  reviewQueue: route('GET', '/review'),
  reviewAction: route('POST', '/review/actions'),
  reviewRecords: route('GET', '/review/actions'),
  uploadImage: route('POST', '/images'),
  confirmTestPayment: route('POST', '/test-payments/confirm'),
  stripeWebhook: route('POST', '/stripe/webhook'),
  health: route('GET', '/health'),
  config: route('GET', '/config'),
  vitals: route('POST', '/vitals'),
};

export type CallName = keyof typeof callRoutes;

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
