/**
 * The calls of spec section 7 (plus the product's own health, config and vitals calls):
 * params, query, body and responses of each, under the base path `/api`.
 * The server registers its routes with these schemas and checks its answers against them; the
 * browser takes its paths from call-paths.ts and trusts those checked answers (decision 014).
 */
import { z } from 'zod';
import { callPaths } from './call-paths';
import {
  CONDITION_OPTIONS,
  PAGE_LIMIT_DEFAULT,
  PAGE_LIMIT_MAX,
  RAM_OPTIONS,
  STORAGE_OPTIONS,
} from './constants';
import {
  advertisedItemSchema,
  bannedAddressSchema,
  categoryCodeSchema,
  categorySchema,
  idSchema,
  orderSchema,
  productSchema,
  userSchema,
  userTypeSchema,
  wishListItemSchema,
} from './entities';

export { API_BASE, apiPath } from './call-paths';

export const errorSchema = z.object({ message: z.string() });
export type ApiError = z.infer<typeof errorSchema>;

export const emailSchema = z
  .string({ error: 'email is required' })
  .trim()
  .toLowerCase()
  .max(254, 'email is too long')
  .pipe(z.email({ error: 'email must be a valid e-mail address' }));

/** Whether dollars `n` are a whole number of cents, but for binary noise (0.1 + 0.2 is 30 cents). */
const wholeCents = (n: number) => {
  const cents = n * 100;
  return Math.abs(cents - Math.round(cents)) <= Math.abs(cents) * 1e-12;
};

/**
 * Money as a form or a JSON client sends it: a number or numeric string, at least one cent, at
 * most two decimals. A price under a cent is not a price: it is refused, never rounded to 0.
 */
export const dollarsInputSchema = z
  .union([
    z.number(),
    z
      .string()
      .trim()
      .regex(/^\d+(\.\d+)?$/, 'must be a dollar amount'),
  ])
  .transform(Number)
  .pipe(
    z
      .number()
      .min(0.01, { error: 'must be at least 0.01', abort: true })
      .max(1_000_000, 'must be at most 1000000')
      .refine(wholeCents, 'must have at most two decimals'),
  );

const wholeNumberInput = (min: number, max: number) =>
  z
    .union([z.number(), z.string().trim().regex(/^\d+$/, 'must be a whole number')])
    .transform(Number)
    .pipe(
      z
        .number()
        .int('must be a whole number')
        .min(min, `must be at least ${min}`)
        .max(max, `must be at most ${max}`),
    );

const text = (field: string, max = 200) =>
  z
    .string({ error: `${field} is required` })
    .trim()
    .min(1, `${field} is required`)
    .max(max, `${field} is too long`);

export const paginationQuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(PAGE_LIMIT_MAX, `limit must be at most ${PAGE_LIMIT_MAX}`)
    .default(PAGE_LIMIT_DEFAULT),
  cursor: z
    .string()
    .regex(/^[1-9][0-9]{0,17}$/, 'cursor is not a valid page cursor')
    .optional(),
});
export type PaginationQuery = z.infer<typeof paginationQuerySchema>;

const ack = z.object({ acknowledged: z.boolean() });
const ackWithMessage = z.object({ acknowledged: z.boolean(), message: z.string().optional() });
const idQuery = z.object({ id: idSchema });
const emailQuery = z.object({ email: emailSchema });

export const productInputSchema = z.object({
  categoryId: categoryCodeSchema,
  modelName: text('modelName'),
  image: text('image', 2048),
  originalPrice: dollarsInputSchema,
  resellPrice: dollarsInputSchema,
  location: text('location'),
  description: text('description', 4000),
  timeUsed: wholeNumberInput(0, 1200),
  condition: z.enum(CONDITION_OPTIONS, {
    error: `condition must be one of ${CONDITION_OPTIONS.join(', ')}`,
  }),
  sellerNumber: text('sellerNumber', 40),
  specificatons: z.object({
    ram: z.enum(RAM_OPTIONS, { error: `ram must be one of ${RAM_OPTIONS.join(', ')}` }),
    storage: z.enum(STORAGE_OPTIONS, {
      error: `storage must be one of ${STORAGE_OPTIONS.join(', ')}`,
    }),
    color: text('color', 60),
    battery: wholeNumberInput(1, 100_000),
  }),
});
export type ProductInput = z.input<typeof productInputSchema>;

export const clientConfigSchema = z.object({
  identity: z.object({ google: z.boolean() }),
  payments: z.object({
    provider: z.enum(['embedded', 'stripe']),
    publishableKey: z.string().nullable(),
  }),
  images: z.object({
    provider: z.enum(['embedded', 'imgbb']),
    /** Where the client posts `image` (multipart); for imgbb it carries the key as the spec says. */
    uploadUrl: z.string(),
  }),
});
export type ClientConfig = z.infer<typeof clientConfigSchema>;

export const vitalSchema = z.object({
  name: z.enum(['CLS', 'FCP', 'INP', 'LCP', 'TTFB']),
  value: z.number().finite().nonnegative(),
  rating: z.enum(['good', 'needs-improvement', 'poor']),
  id: z.string().max(100),
  navigationType: z.string().max(40).optional(),
  path: z.string().max(500),
});
export type Vital = z.infer<typeof vitalSchema>;

/** Who may call: anyone, or a bearer of the product server's access token. */
export type Access = 'public' | 'bearer' | 'identity';

type Call = {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: (typeof callPaths)[keyof typeof callPaths];
  access: Access;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response: z.ZodType;
};

const define = <const T extends Record<string, Call>>(calls: T) => calls;

export const calls = define({
  adminCheck: {
    method: 'GET',
    path: callPaths.adminCheck,
    access: 'public',
    params: z.object({ email: emailSchema }),
    response: z.object({ isAdmin: z.boolean() }),
  },
  sellerCheck: {
    method: 'GET',
    path: callPaths.sellerCheck,
    access: 'public',
    params: z.object({ email: emailSchema }),
    response: z.object({ isSeller: z.boolean() }),
  },
  listBuyers: {
    method: 'GET',
    path: callPaths.listBuyers,
    access: 'bearer',
    query: paginationQuerySchema,
    response: z.array(userSchema),
  },
  listSellers: {
    method: 'GET',
    path: callPaths.listSellers,
    access: 'bearer',
    query: paginationQuerySchema,
    response: z.array(userSchema),
  },
  deleteUser: {
    method: 'DELETE',
    path: callPaths.deleteUser,
    access: 'bearer',
    query: idQuery,
    response: z.object({ deletedCount: z.number().int() }),
  },
  verifySeller: {
    method: 'PUT',
    path: callPaths.verifySeller,
    access: 'bearer',
    params: z.object({ email: emailSchema }),
    response: z.object({ modifiedCount: z.number().int() }),
  },
  listBans: {
    method: 'GET',
    path: callPaths.listBans,
    access: 'bearer',
    query: paginationQuerySchema,
    response: z.array(bannedAddressSchema),
  },
  banEmail: {
    method: 'POST',
    path: callPaths.banEmail,
    access: 'bearer',
    body: z.object({ email: emailSchema }),
    response: z.object({ acknowledged: z.boolean(), deletedCount: z.number().int() }),
  },
  liftBan: {
    method: 'DELETE',
    path: callPaths.liftBan,
    access: 'bearer',
    query: emailQuery,
    response: z.object({ deletedCount: z.number().int() }),
  },
  saveUser: {
    method: 'POST',
    path: callPaths.saveUser,
    access: 'identity',
    body: z.object({ email: emailSchema, name: text('name', 100), type: userTypeSchema }),
    response: ack,
  },
  getToken: {
    method: 'GET',
    path: callPaths.getToken,
    access: 'identity',
    query: emailQuery,
    response: z.object({ accessToken: z.string() }),
  },
  myProducts: {
    method: 'GET',
    path: callPaths.myProducts,
    access: 'bearer',
    query: emailQuery.extend(paginationQuerySchema.shape),
    response: z.array(productSchema),
  },
  addProduct: {
    method: 'POST',
    path: callPaths.addProduct,
    access: 'bearer',
    body: productInputSchema,
    response: z.object({ acknowledged: z.boolean(), insertedId: idSchema }),
  },
  deleteProduct: {
    method: 'DELETE',
    path: callPaths.deleteProduct,
    access: 'bearer',
    query: idQuery,
    response: z.object({ deletedCount: z.number().int() }),
  },
  listCategories: {
    method: 'GET',
    path: callPaths.listCategories,
    access: 'public',
    response: z.array(categorySchema),
  },
  categoryProducts: {
    method: 'GET',
    path: callPaths.categoryProducts,
    access: 'public',
    params: z.object({ id: categoryCodeSchema }),
    query: paginationQuerySchema,
    response: z.array(productSchema),
  },
  listAdvertised: {
    method: 'GET',
    path: callPaths.listAdvertised,
    access: 'public',
    query: paginationQuerySchema,
    response: z.array(advertisedItemSchema),
  },
  advertise: {
    method: 'POST',
    path: callPaths.advertise,
    access: 'bearer',
    query: idQuery,
    response: ackWithMessage,
  },
  wishList: {
    method: 'GET',
    path: callPaths.wishList,
    access: 'bearer',
    query: emailQuery,
    response: z.array(wishListItemSchema),
  },
  addToWishList: {
    method: 'POST',
    path: callPaths.addToWishList,
    access: 'bearer',
    body: z.object({ productId: idSchema }).loose(),
    response: ackWithMessage,
  },
  removeFromWishList: {
    method: 'DELETE',
    path: callPaths.removeFromWishList,
    access: 'bearer',
    params: idQuery,
    response: z.object({ deletedCount: z.number().int() }),
  },
  myOrders: {
    method: 'GET',
    path: callPaths.myOrders,
    access: 'bearer',
    query: emailQuery.extend(paginationQuerySchema.shape),
    response: z.array(orderSchema),
  },
  book: {
    method: 'POST',
    path: callPaths.book,
    access: 'bearer',
    body: z
      .object({ productId: idSchema, location: text('location'), number: text('number', 40) })
      .loose(),
    response: ack,
  },
  deleteOrder: {
    method: 'DELETE',
    path: callPaths.deleteOrder,
    access: 'bearer',
    query: idQuery,
    response: z.object({ deletedCount: z.number().int() }),
  },
  createPaymentIntent: {
    method: 'POST',
    path: callPaths.createPaymentIntent,
    access: 'bearer',
    body: z.object({ price: dollarsInputSchema, orderId: idSchema }),
    response: z.object({ clientSecret: z.string() }),
  },
  recordPayment: {
    method: 'POST',
    path: callPaths.recordPayment,
    access: 'bearer',
    body: z.object({ transactionId: text('transactionId'), orderId: idSchema }).loose(),
    response: z.object({ insertedId: idSchema }),
  },
  paymentOrder: {
    method: 'GET',
    path: callPaths.paymentOrder,
    access: 'bearer',
    params: idQuery,
    response: orderSchema,
  },
  uploadImage: {
    method: 'POST',
    path: callPaths.uploadImage,
    access: 'bearer',
    response: z.object({ success: z.boolean(), data: z.object({ url: z.string() }) }),
  },
  confirmTestPayment: {
    method: 'POST',
    path: callPaths.confirmTestPayment,
    access: 'public',
    body: z.object({
      clientSecret: z.string().min(1).max(200),
      card: z.object({
        number: z.string().max(30),
        expMonth: z.coerce.number().int(),
        expYear: z.coerce.number().int(),
        cvc: z.string().max(4),
      }),
      billingDetails: z.object({ name: z.string().max(200), email: z.string().max(254) }),
    }),
    response: z.object({
      paymentIntent: z.object({
        id: z.string(),
        status: z.string(),
        amount: z.number().int(),
        currency: z.string(),
      }),
    }),
  },
  health: {
    method: 'GET',
    path: callPaths.health,
    access: 'public',
    response: z.object({ status: z.literal('ok'), database: z.literal('ok') }),
  },
  config: {
    method: 'GET',
    path: callPaths.config,
    access: 'public',
    response: clientConfigSchema,
  },
  vitals: {
    method: 'POST',
    path: callPaths.vitals,
    access: 'public',
    body: vitalSchema,
    response: z.null(),
  },
} as const);
