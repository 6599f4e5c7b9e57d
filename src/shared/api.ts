/**
 * The calls of spec section 7 (plus the product's own health, config and vitals calls):
 * params, query, body and responses of each, under the base path `/api`.
 * The server registers its routes with these schemas and checks its answers against them; the
 * browser takes its methods and paths from call-routes.ts and trusts those checked answers (decision 014).
 */
import { z } from 'zod';
import { callRoutes, type Method } from './call-routes';
import {
  BATTERY_HEALTH_MAX,
  BATTERY_HEALTH_MIN,
  CATEGORY_CODES,
  CONDITION_OPTIONS,
  PAGE_LIMIT_DEFAULT,
  PAGE_LIMIT_MAX,
  PRODUCT_PHOTOS_MAX,
  RAM_OPTIONS,
  SAVED_SEARCH_FREQUENCIES,
  SAVED_SEARCH_NAME_MAX,
  SEARCH_SORTS,
  SEARCH_TEXT_MAX,
  STORAGE_OPTIONS,
} from './constants';
import {
  advertisedItemSchema,
  bannedAddressSchema,
  blockedImeiSchema,
  bookingSchema,
  bulkRowSchema,
  bulkUploadSchema,
  categoryCodeSchema,
  categorySchema,
  conversationSchema,
  conversationSummarySchema,
  financeSchema,
  idSchema,
  notificationSchema,
  orderSchema,
  overviewSchema,
  ownProductSchema,
  payoutAccountSchema,
  payoutSummarySchema,
  priceGuideSchema,
  priceHistorySchema,
  productSchema,
  reportedMessageSchema,
  saleSchema,
  sellerProfileSchema,
  userSchema,
  userTypeSchema,
  whatSellsSchema,
  wishListItemSchema,
} from './entities';
import { imeiDigits, imeiProblem } from './imei';
import {
  LISTING_LABELS,
  type ListingField,
  type Read,
  readBattery,
  readBatteryHealth,
  readDollars,
  readTimeUsed,
} from './listing-input';
import { MESSAGE_MAX_LENGTH } from './messages';
import { NOTIFICATION_KINDS } from './notifications';
import { isRangeProblem, readOverviewRange, utcDay } from './overview';
import {
  myReportSchema,
  reportInputSchema,
  reviewActionInputSchema,
  reviewItemSchema,
  reviewRecordSchema,
} from './risk';

export { API_BASE, apiPath } from './call-routes';

/**
 * Every refusal: `{ message }`. A 400 of a body that does not validate adds `fields`, each
 * problem by the body path it is about (`specificatons.battery`), so a form shows it beside its
 * field; a refusal about one field of a listing (`IMEI: This phone is already listed`) has it too.
 */
export const errorSchema = z.object({
  message: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
});
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
/** The days the admin's Finance page covers: the last `days` (UTC), today included. */
const financeQuerySchema = z.object({ days: wholeNumberInput(1, 366).default(30) });
/**
 * The admin's Overview range (decision 056): `from` and `to` as YYYY-MM-DD, UTC days, both
 * included, at most 366 days; the last 30 days when missing. Read by src/shared/overview.ts.
 */
const overviewDay = (field: 'from' | 'to') =>
  z
    .string({ error: `${field} must be a date written YYYY-MM-DD` })
    .max(10, `${field} must be a date written YYYY-MM-DD`)
    .optional();
const overviewQuerySchema = z
  .object({ from: overviewDay('from'), to: overviewDay('to') })
  .superRefine((query, ctx) => {
    const range = readOverviewRange(query, utcDay(new Date()));
    if (isRangeProblem(range))
      ctx.addIssue({ code: 'custom', message: range.message, path: [range.field] });
  });
export type OverviewQuery = z.output<typeof overviewQuerySchema>;
const ackWithMessage = z.object({ acknowledged: z.boolean(), message: z.string().optional() });
const idQuery = z.object({ id: idSchema });
const emailQuery = z.object({ email: emailSchema });

/** A message as typed: plain text, 1 to 2,000 characters once trimmed. */
const messageBodySchema = z
  .string({ error: 'body: write a message' })
  .trim()
  .min(1, 'body: write a message')
  .max(MESSAGE_MAX_LENGTH, `body: at most ${MESSAGE_MAX_LENGTH} characters`);

/** The kinds of notification a person does not want mailed (issue 20); the bell shows them all. */
export const mailSettingsSchema = z.object({
  off: z
    .array(z.enum(NOTIFICATION_KINDS, { error: 'off: no such kind of mail' }))
    .max(NOTIFICATION_KINDS.length, `off: at most ${NOTIFICATION_KINDS.length} kinds`),
});
export type MailSettings = z.infer<typeof mailSettingsSchema>;

/** A phone's photos in order, the cover first: URLs the image host issued. */
export const photosSchema = z
  .array(text('photo', 2048), { error: 'photos must be a list of photo URLs' })
  .min(1, 'photos: a phone needs at least its cover photo')
  .max(PRODUCT_PHOTOS_MAX, `photos: at most ${PRODUCT_PHOTOS_MAX} photos`)
  .refine((list) => new Set(list).size === list.length, 'photos: each photo once');

/**
 * A field of a listing as a seller types it (issue 19): read by `read` (listing-input.ts, the
 * form reads with it too), its problems in the words of the form's label.
 */
const typedField = <T>(field: ListingField, read: (typed: unknown) => Read<T>) =>
  z
    .union([z.string(), z.number()], {
      error: (issue) =>
        `${LISTING_LABELS[field]}: ${issue.input === undefined ? 'this field is required' : 'write it as text or a number'}`,
    })
    .transform((typed, ctx) => {
      const read_ = read(typed);
      if (read_.ok) return read_.value;
      ctx.addIssue({ code: 'custom', message: read_.message });
      return z.NEVER;
    });

/** Text a seller types, its problems named by the form's label. */
const labelledText = (field: ListingField, max = 200) => {
  const label = LISTING_LABELS[field];
  return z
    .string({ error: `${label}: this field is required` })
    .trim()
    .min(1, `${label}: this field is required`)
    .max(max, `${label}: too long, at most ${max} characters`);
};

/** A choice of the form's list, its problem named by the form's label. */
const labelledChoice = <T extends readonly [string, ...string[]]>(field: ListingField, values: T) =>
  z.enum(values, {
    error: `${LISTING_LABELS[field]}: choose one of ${values.join(', ')}`,
  });

/** A listing's fields as a seller sends them (spec section 5), without the IMEI. */
const productFieldsSchema = z.object({
  categoryId: labelledChoice('categoryId', CATEGORY_CODES),
  modelName: labelledText('modelName'),
  image: labelledText('image', 2048),
  /** Added to the spec: every photo in order; when given, the first is `image`, the cover. */
  photos: photosSchema.optional(),
  /** `1200`, `$1,200`, `1,200.50`, `1 200` (issue 19). */
  originalPrice: typedField('originalPrice', (v) => readDollars('originalPrice', v)),
  resellPrice: typedField('resellPrice', (v) => readDollars('resellPrice', v)),
  location: labelledText('location'),
  description: labelledText('description', 4000),
  /** Whole months: `18`, `18 months`, `18 mo`, `1.5 years`, `2 yrs` (rounded). */
  timeUsed: typedField('timeUsed', readTimeUsed),
  condition: labelledChoice('condition', CONDITION_OPTIONS),
  sellerNumber: labelledText('sellerNumber', 40),
  specificatons: z.object(
    {
      ram: labelledChoice('specificatons.ram', RAM_OPTIONS),
      storage: labelledChoice('specificatons.storage', STORAGE_OPTIONS),
      color: labelledText('specificatons.color', 60),
      /** mAh: `4500`, `4,500`, `4500 mAh`, `4,500mAh`. */
      battery: typedField('specificatons.battery', readBattery),
    },
    { error: 'RAM, Storage, Color and Battery (mAh): these fields are required' },
  ),
  /** Added (issue 19): battery health in percent, optional (`85`, `85%`; empty or null is none). */
  batteryHealth: z
    .union([z.string(), z.number(), z.null()], {
      error: `${LISTING_LABELS.batteryHealth}: write it as a number or leave it empty`,
    })
    .transform((typed, ctx) => {
      const read = readBatteryHealth(typed);
      if (read.ok) return read.value;
      ctx.addIssue({ code: 'custom', message: read.message });
      return z.NEVER;
    })
    .optional(),
});

/** Added (issue 19): the phone's IMEI, 15 digits with a valid check digit, stored as digits. */
export const imeiInputSchema = z
  .string({ error: 'IMEI: write the 15 digits the phone shows (dial *#06#)' })
  .max(40, 'IMEI: too long, an IMEI has 15 digits')
  .superRefine((typed, ctx) => {
    const problem = imeiProblem(typed);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .transform(imeiDigits);

const coverFirst = (p: { image: string; photos?: string[] | undefined }) =>
  p.photos === undefined || p.photos[0] === p.image;

/**
 * A new listing: the spec's fields, the photos, and (added) the IMEI, required of every client
 * (issue 29: a listing without one escaped the blocks on stolen phones).
 */
export const productInputSchema = productFieldsSchema
  .extend({ imei: imeiInputSchema })
  .refine(coverFirst, { error: 'photos: the first photo is the cover, image', path: ['photos'] });
export type ProductInput = z.input<typeof productInputSchema>;

/** An edit of an unsold listing (issue 19): every field but its IMEI, its seller and its photos (their own call). */
export const productEditSchema = productFieldsSchema.omit({ image: true, photos: true });
export type ProductEdit = z.input<typeof productEditSchema>;

/** A query parameter given once or repeated (`condition=Good&condition=Fair`), as a list. */
const oneOrMany = <T extends readonly [string, ...string[]]>(values: T, field: string) => {
  const error = `${field} must be one of ${values.join(', ')}, each at most once`;
  const one = z.enum(values, { error });
  return z
    .union([one, z.array(one).max(values.length)], { error })
    .transform((v) => (Array.isArray(v) ? [...new Set(v)] : [v]))
    .optional();
};

const flag = (field: string) =>
  z
    .enum(['true', 'false'], { error: `${field} must be true or false` })
    .transform((v) => v === 'true')
    .optional();

/** Text a filter matches, or nothing when it is blank. */
const optionalText = (field: string, max: number) =>
  z
    .string({ error: `${field} must be text` })
    .trim()
    .max(max, `${field} is too long`)
    .transform((v) => v || undefined)
    .optional();

/**
 * The search (not in the spec, issue 18): free text over model and description, forgiving typos
 * and word order, the filters, a sort, and keyset paging by the sort's own cursor.
 */
export const searchQuerySchema = z
  .object({
    q: optionalText('q', SEARCH_TEXT_MAX),
    brand: oneOrMany(CATEGORY_CODES, 'brand'),
    ram: oneOrMany(RAM_OPTIONS, 'ram'),
    storage: oneOrMany(STORAGE_OPTIONS, 'storage'),
    condition: oneOrMany(CONDITION_OPTIONS, 'condition'),
    minPrice: dollarsInputSchema.optional(),
    maxPrice: dollarsInputSchema.optional(),
    /** Battery capacity in mAh, at least. */
    minBattery: wholeNumberInput(1, 100_000).optional(),
    /** Battery health in percent, at least (issue 19). */
    minBatteryHealth: wholeNumberInput(BATTERY_HEALTH_MIN, BATTERY_HEALTH_MAX).optional(),
    location: optionalText('location', 100),
    verified: flag('verified'),
    includeSold: flag('includeSold'),
    sort: z
      .enum(SEARCH_SORTS, { error: `sort must be one of ${SEARCH_SORTS.join(', ')}` })
      .default(SEARCH_SORTS[0]),
    limit: paginationQuerySchema.shape.limit,
    /** `seq` when newest first; `cents-seq` when by price. */
    cursor: z
      .string()
      .regex(/^(\d{1,10}-)?[1-9]\d{0,17}$/, 'cursor is not a valid page cursor')
      // A price in cents is a 32-bit number: a larger one is no phone's (and the database's
      // integer comparison would refuse it).
      .refine((c) => !c.includes('-') || Number(c.split('-')[0]) <= 2_147_483_647, {
        error: 'cursor is not a valid page cursor',
      })
      .optional(),
  })
  .refine((q) => q.minPrice === undefined || q.maxPrice === undefined || q.minPrice <= q.maxPrice, {
    error: 'minPrice must not be above maxPrice',
  });
export type SearchQuery = z.output<typeof searchQuerySchema>;

/** The price guide's question: a phone like this one (issue 19). */
export const priceGuideQuerySchema = z.object({
  modelName: text('modelName'),
  storage: z.enum(STORAGE_OPTIONS, {
    error: `storage must be one of ${STORAGE_OPTIONS.join(', ')}`,
  }),
  condition: z
    .enum(CONDITION_OPTIONS, { error: `condition must be one of ${CONDITION_OPTIONS.join(', ')}` })
    .optional(),
});

/** A price history's question (issue 33): a phone like this one, and its price if it has one. */
export const priceHistoryQuerySchema = priceGuideQuerySchema.extend({
  price: dollarsInputSchema.optional(),
});

export const searchResultSchema = z.object({
  /** How many phones match, counted on the first page only (null on the next ones). */
  count: z.number().int().nonnegative().nullable(),
  /** True when there are more than `count` (SEARCH_COUNT_CAP): "1,000+". */
  countCapped: z.boolean(),
  /**
   * True when no phone matched every word as typed, so these are close matches (a letter
   * missing, swapped or wrong): the page says so.
   */
  closeMatches: z.boolean(),
  products: z.array(productSchema),
});
export type SearchResult = z.infer<typeof searchResultSchema>;

/** A phone's own page: the phone and who sells it. */
/** A search as saved (issue 33): its query string as the search call takes it, at most this long. */
export const SAVED_SEARCH_QUERY_MAX = 1000;

const savedSearchName = z
  .string({ error: 'name: name the search' })
  .trim()
  .min(1, 'name: name the search')
  .max(SAVED_SEARCH_NAME_MAX, `name: at most ${SAVED_SEARCH_NAME_MAX} characters`);
const savedSearchFrequency = z.enum(SAVED_SEARCH_FREQUENCIES, {
  error: `frequency must be one of ${SAVED_SEARCH_FREQUENCIES.join(', ')}`,
});

/** Saving a search: its name, the search's query string (`q=iphone+14&maxPrice=500`), how to hear. */
export const saveSearchSchema = z.object({
  name: savedSearchName,
  search: z
    .string({ error: 'search: the search to save, as its query string' })
    .max(SAVED_SEARCH_QUERY_MAX, `search: at most ${SAVED_SEARCH_QUERY_MAX} characters`),
  frequency: savedSearchFrequency,
});
export type SaveSearch = z.infer<typeof saveSearchSchema>;

/** An edit of a saved search: any of its name, how to hear, paused. */
export const editSavedSearchSchema = z
  .object({
    name: savedSearchName.optional(),
    frequency: savedSearchFrequency.optional(),
    paused: z.boolean({ error: 'paused must be true or false' }).optional(),
  })
  .refine((e) => e.name !== undefined || e.frequency !== undefined || e.paused !== undefined, {
    error: 'Say what to change: name, frequency or paused',
  });

export const savedSearchSchema = z.object({
  _id: idSchema,
  name: z.string(),
  /** The search's query string: the search page opens `/search?` + this. */
  search: z.string(),
  frequency: savedSearchFrequency,
  paused: z.boolean(),
  createdAt: z.string(),
  /** Phones for sale matching it now (up to the search's count cap). */
  matching: z.number().int().nonnegative(),
  matchingCapped: z.boolean(),
  /** Phones it told of since its owner last opened it. */
  newSinceSeen: z.number().int().nonnegative(),
});
export type SavedSearch = z.infer<typeof savedSearchSchema>;

/**
 * A phone as its seller is about to list or edit it (issue 33): how many buyers' saved searches
 * it would match. The words are its model and description.
 */
export const waitingBuyersQuerySchema = z.object({
  categoryId: z.enum(CATEGORY_CODES, {
    error: `categoryId must be one of ${CATEGORY_CODES.join(', ')}`,
  }),
  modelName: optionalText('modelName', 200),
  description: optionalText('description', 2000),
  ram: z.enum(RAM_OPTIONS, { error: `ram must be one of ${RAM_OPTIONS.join(', ')}` }),
  storage: z.enum(STORAGE_OPTIONS, {
    error: `storage must be one of ${STORAGE_OPTIONS.join(', ')}`,
  }),
  condition: z.enum(CONDITION_OPTIONS, {
    error: `condition must be one of ${CONDITION_OPTIONS.join(', ')}`,
  }),
  price: dollarsInputSchema,
  battery: wholeNumberInput(1, 100_000).optional(),
  batteryHealth: wholeNumberInput(BATTERY_HEALTH_MIN, BATTERY_HEALTH_MAX).optional(),
  location: optionalText('location', 100),
  /** The listing being edited: its own seller's searches are not counted either way. */
  productId: idSchema.optional(),
});
export type WaitingBuyersQuery = z.output<typeof waitingBuyersQuerySchema>;

export const productPageSchema = z.object({
  product: productSchema,
  seller: sellerProfileSchema,
});
export type ProductPage = z.infer<typeof productPageSchema>;

export const clientConfigSchema = z.object({
  identity: z.object({ google: z.boolean() }),
  payments: z.object({
    provider: z.enum(['embedded', 'stripe']),
    publishableKey: z.string().nullable(),
  }),
  /** The marketplace's fee on a sale (issue 30), for "You receive ... after the 5% fee". */
  fees: z.object({ percent: z.number(), minCents: z.number().int() }),
  /** Where payouts go: the embedded test bank, or Stripe Connect. */
  payouts: z.object({
    provider: z.enum(['embedded', 'stripe']),
    schedule: z.string(),
    /** How long payouts wait after a change of payout account (PAYOUT_ACCOUNT_HOLD_HOURS). */
    accountHoldHours: z.number(),
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

/**
 * Who may call. `identity`: the identity provider's session cookie (before there is a token);
 * `bearer`: any account's access token, ownership checked by the handler; `admin`, `seller`,
 * `buyer`: an access token of an account with that role (a buyer is account type `user`).
 */
export type Access = 'public' | 'identity' | 'bearer' | 'admin' | 'seller' | 'buyer';

/** The OpenAPI tag (the group on /api/docs) a call is listed under. */
export type Tag =
  | 'users'
  | 'products'
  | 'catalog'
  | 'buying'
  | 'sales'
  | 'payments'
  | 'images'
  | 'notifications'
  | 'system';

export type Call = {
  method: Method;
  path: (typeof callRoutes)[keyof typeof callRoutes]['path'];
  access: Access;
  tag: Tag;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response: z.ZodType;
};

const define = <const T extends Record<string, Call>>(calls: T) => calls;

export const calls = define({
  adminCheck: {
    ...callRoutes.adminCheck,
    access: 'public',
    tag: 'users',
    params: z.object({ email: emailSchema }),
    response: z.object({ isAdmin: z.boolean() }),
  },
  sellerCheck: {
    ...callRoutes.sellerCheck,
    access: 'public',
    tag: 'users',
    params: z.object({ email: emailSchema }),
    response: z.object({ isSeller: z.boolean() }),
  },
  listBuyers: {
    ...callRoutes.listBuyers,
    access: 'admin',
    tag: 'users',
    query: paginationQuerySchema,
    response: z.array(userSchema),
  },
  listSellers: {
    ...callRoutes.listSellers,
    access: 'admin',
    tag: 'users',
    query: paginationQuerySchema,
    response: z.array(userSchema),
  },
  deleteUser: {
    ...callRoutes.deleteUser,
    access: 'admin',
    tag: 'users',
    query: idQuery,
    response: z.object({ deletedCount: z.number().int() }),
  },
  verifySeller: {
    ...callRoutes.verifySeller,
    access: 'admin',
    tag: 'users',
    params: z.object({ email: emailSchema }),
    response: z.object({ modifiedCount: z.number().int() }),
  },
  listBans: {
    ...callRoutes.listBans,
    access: 'admin',
    tag: 'users',
    query: paginationQuerySchema,
    response: z.array(bannedAddressSchema),
  },
  banEmail: {
    ...callRoutes.banEmail,
    access: 'admin',
    tag: 'users',
    body: z.object({ email: emailSchema }),
    response: z.object({ acknowledged: z.boolean(), deletedCount: z.number().int() }),
  },
  liftBan: {
    ...callRoutes.liftBan,
    access: 'admin',
    tag: 'users',
    query: emailQuery,
    response: z.object({ deletedCount: z.number().int() }),
  },
  saveUser: {
    ...callRoutes.saveUser,
    access: 'identity',
    tag: 'users',
    body: z.object({ email: emailSchema, name: text('name', 100), type: userTypeSchema }),
    response: ack,
  },
  getToken: {
    ...callRoutes.getToken,
    access: 'identity',
    tag: 'users',
    query: emailQuery,
    response: z.object({ accessToken: z.string() }),
  },
  myProducts: {
    ...callRoutes.myProducts,
    access: 'bearer',
    tag: 'products',
    query: emailQuery.extend(paginationQuerySchema.shape),
    response: z.array(ownProductSchema),
  },
  updateProduct: {
    ...callRoutes.updateProduct,
    access: 'seller',
    tag: 'products',
    params: idQuery,
    body: productEditSchema,
    response: ack,
  },
  /** The phone's seller, or an admin taking a listing off the market (issue 29). */
  withdrawProduct: {
    ...callRoutes.withdrawProduct,
    access: 'bearer',
    tag: 'products',
    params: idQuery,
    response: ack,
  },
  relistProduct: {
    ...callRoutes.relistProduct,
    access: 'seller',
    tag: 'products',
    params: idQuery,
    response: ack,
  },
  stopAdvertising: {
    ...callRoutes.stopAdvertising,
    access: 'seller',
    tag: 'products',
    query: idQuery,
    response: z.object({ deletedCount: z.number().int() }),
  },
  priceGuide: {
    ...callRoutes.priceGuide,
    access: 'seller',
    tag: 'products',
    query: priceGuideQuerySchema,
    response: priceGuideSchema,
  },
  /** What a model sold for by week, public (a phone's page shows it), never who sold it. */
  priceHistory: {
    ...callRoutes.priceHistory,
    access: 'public',
    tag: 'catalog',
    query: priceHistoryQuerySchema,
    response: priceHistorySchema,
  },
  /** What sells: the seller's own figures per listing, per model and by week (issue 35). */
  whatSells: {
    ...callRoutes.whatSells,
    access: 'seller',
    tag: 'products',
    response: whatSellsSchema,
  },
  /**
   * Bulk listing (issue 35, decision 057): the CSV template, with the form's labels as its
   * columns and one example phone (`text/csv`, an attachment).
   */
  bulkTemplate: {
    ...callRoutes.bulkTemplate,
    access: 'seller',
    tag: 'products',
    response: z.string(),
  },
  /** The seller's latest bulk uploads, newest first. */
  bulkUploads: {
    ...callRoutes.bulkUploads,
    access: 'seller',
    tag: 'products',
    response: z.array(bulkUploadSchema),
  },
  /**
   * A bulk upload: multipart with the file fields `csv` (the template filled in, at most 2 MB and
   * 500 phones) and `zip` (the photos it names, at most 200 MB). A refused CSV is a 400 with one
   * sentence; otherwise 202 and the photos are read in the background (`bulkUpload` says how far).
   */
  startBulkUpload: {
    ...callRoutes.startBulkUpload,
    access: 'seller',
    tag: 'products',
    response: bulkUploadSchema,
  },
  /** A bulk upload of the seller's and its rows, each with its problems or its outcome. */
  bulkUpload: {
    ...callRoutes.bulkUpload,
    access: 'seller',
    tag: 'products',
    params: idQuery,
    response: bulkUploadSchema.extend({ rows: z.array(bulkRowSchema) }),
  },
  /** Lists the rows of a preview that have no problem, in the background (202). */
  listBulkUpload: {
    ...callRoutes.listBulkUpload,
    access: 'seller',
    tag: 'products',
    params: idQuery,
    response: bulkUploadSchema,
  },
  unverifySeller: {
    ...callRoutes.unverifySeller,
    access: 'admin',
    tag: 'users',
    params: z.object({ email: emailSchema }),
    response: z.object({ modifiedCount: z.number().int() }),
  },
  listBlockedImeis: {
    ...callRoutes.listBlockedImeis,
    access: 'admin',
    tag: 'products',
    query: paginationQuerySchema,
    response: z.array(blockedImeiSchema),
  },
  blockImei: {
    ...callRoutes.blockImei,
    access: 'admin',
    tag: 'products',
    body: z.object({ imei: imeiInputSchema, reason: text('reason', 500) }),
    /** `withdrawnCount`: the live listings with that IMEI, withdrawn by the block. */
    response: z.object({ acknowledged: z.boolean(), withdrawnCount: z.number().int() }),
  },
  unblockImei: {
    ...callRoutes.unblockImei,
    access: 'admin',
    tag: 'products',
    params: idQuery,
    response: z.object({ deletedCount: z.number().int() }),
  },
  addProduct: {
    ...callRoutes.addProduct,
    access: 'seller',
    tag: 'products',
    body: productInputSchema,
    response: z.object({ acknowledged: z.boolean(), insertedId: idSchema }),
  },
  deleteProduct: {
    ...callRoutes.deleteProduct,
    access: 'bearer',
    tag: 'products',
    query: idQuery,
    response: z.object({ deletedCount: z.number().int() }),
  },
  listCategories: {
    ...callRoutes.listCategories,
    access: 'public',
    tag: 'catalog',
    response: z.array(categorySchema),
  },
  categoryProducts: {
    ...callRoutes.categoryProducts,
    access: 'public',
    tag: 'catalog',
    params: z.object({ id: categoryCodeSchema }),
    query: paginationQuerySchema,
    response: z.array(productSchema),
  },
  listAdvertised: {
    ...callRoutes.listAdvertised,
    access: 'public',
    tag: 'catalog',
    query: paginationQuerySchema,
    response: z.array(advertisedItemSchema),
  },
  searchProducts: {
    ...callRoutes.searchProducts,
    access: 'public',
    tag: 'catalog',
    query: searchQuerySchema,
    response: searchResultSchema,
  },
  product: {
    ...callRoutes.product,
    access: 'public',
    tag: 'catalog',
    params: idQuery,
    response: productPageSchema,
  },
  /** Up to SIMILAR_PHONES phones for sale like this one, best first (issue 33, decision 050). */
  similarProducts: {
    ...callRoutes.similarProducts,
    access: 'public',
    tag: 'catalog',
    params: idQuery,
    response: z.array(productSchema),
  },
  setProductPhotos: {
    ...callRoutes.setProductPhotos,
    access: 'seller',
    tag: 'products',
    params: idQuery,
    body: z.object({ photos: photosSchema }),
    response: ack,
  },
  seller: {
    ...callRoutes.seller,
    access: 'public',
    tag: 'catalog',
    params: idQuery,
    response: sellerProfileSchema,
  },
  sellerListings: {
    ...callRoutes.sellerListings,
    access: 'public',
    tag: 'catalog',
    params: idQuery,
    query: paginationQuerySchema,
    response: z.array(productSchema),
  },
  advertise: {
    ...callRoutes.advertise,
    access: 'seller',
    tag: 'products',
    query: idQuery,
    response: ackWithMessage,
  },
  wishList: {
    ...callRoutes.wishList,
    access: 'bearer',
    tag: 'buying',
    query: emailQuery,
    response: z.array(wishListItemSchema),
  },
  addToWishList: {
    ...callRoutes.addToWishList,
    access: 'buyer',
    tag: 'buying',
    body: z.object({ productId: idSchema }).loose(),
    response: ackWithMessage,
  },
  removeFromWishList: {
    ...callRoutes.removeFromWishList,
    access: 'bearer',
    tag: 'buying',
    params: idQuery,
    response: z.object({ deletedCount: z.number().int() }),
  },
  myOrders: {
    ...callRoutes.myOrders,
    access: 'bearer',
    tag: 'buying',
    query: emailQuery.extend(paginationQuerySchema.shape),
    response: z.array(orderSchema),
  },
  book: {
    ...callRoutes.book,
    access: 'buyer',
    tag: 'buying',
    body: z
      .object({ productId: idSchema, location: text('location'), number: text('number', 40) })
      .loose(),
    /** `insertedId` (added to the spec): the new order, so the buyer can go on to pay. */
    response: ack.extend({ insertedId: idSchema.optional() }),
  },
  deleteOrder: {
    ...callRoutes.deleteOrder,
    access: 'bearer',
    tag: 'buying',
    query: idQuery,
    response: z.object({ deletedCount: z.number().int() }),
  },
  createPaymentIntent: {
    ...callRoutes.createPaymentIntent,
    access: 'bearer',
    tag: 'payments',
    body: z.object({ price: dollarsInputSchema, orderId: idSchema }),
    response: z.object({ clientSecret: z.string() }),
  },
  recordPayment: {
    ...callRoutes.recordPayment,
    access: 'bearer',
    tag: 'payments',
    body: z.object({ transactionId: text('transactionId'), orderId: idSchema }).loose(),
    response: z.object({ insertedId: idSchema }),
  },
  paymentOrder: {
    ...callRoutes.paymentOrder,
    access: 'bearer',
    tag: 'buying',
    params: idQuery,
    response: orderSchema,
  },
  myBookings: {
    ...callRoutes.myBookings,
    access: 'bearer',
    tag: 'sales',
    response: z.array(bookingSchema),
  },
  sale: {
    ...callRoutes.sale,
    access: 'bearer',
    tag: 'sales',
    params: idQuery,
    response: saleSchema,
  },
  cancelSale: {
    ...callRoutes.cancelSale,
    access: 'bearer',
    tag: 'sales',
    params: idQuery,
    response: ack,
  },
  handOver: {
    ...callRoutes.handOver,
    access: 'seller',
    tag: 'sales',
    params: idQuery,
    body: z.object({
      code: z
        .string({ error: 'code is required' })
        .trim()
        .regex(/^\d{6}$/, 'code must be the six digits the buyer gives you'),
    }),
    response: ack,
  },
  reportProblem: {
    ...callRoutes.reportProblem,
    access: 'bearer',
    tag: 'sales',
    params: idQuery,
    body: z.object({ reason: text('reason', 2000) }),
    response: ack,
  },
  rateSale: {
    ...callRoutes.rateSale,
    access: 'bearer',
    tag: 'sales',
    params: idQuery,
    body: z.object({
      stars: wholeNumberInput(1, 5),
      comment: z.string().trim().max(1000, 'comment is too long').default(''),
    }),
    response: ack,
  },
  mySales: {
    ...callRoutes.mySales,
    access: 'seller',
    tag: 'sales',
    query: paginationQuerySchema,
    response: z.array(saleSchema),
  },
  listDisputes: {
    ...callRoutes.listDisputes,
    access: 'admin',
    tag: 'sales',
    query: paginationQuerySchema,
    response: z.array(saleSchema),
  },
  resolveDispute: {
    ...callRoutes.resolveDispute,
    access: 'admin',
    tag: 'sales',
    params: idQuery,
    body: z.object({
      decision: z.enum(['refund', 'close'], { error: 'decision must be refund or close' }),
    }),
    response: ack,
  },
  myPayouts: {
    ...callRoutes.myPayouts,
    access: 'seller',
    tag: 'payments',
    response: payoutSummarySchema,
  },
  /**
   * The seller's bank account for payouts (the embedded processor's test bank: Stripe's test
   * routing and account numbers). Asks the password again; a change holds payouts a while.
   */
  setPayoutAccount: {
    ...callRoutes.setPayoutAccount,
    access: 'seller',
    tag: 'payments',
    body: z.object({
      routingNumber: z
        .string({ error: 'routingNumber is required' })
        .trim()
        .regex(/^\d{9}$/, 'routingNumber must be the 9 digits of a US routing number'),
      accountNumber: z
        .string({ error: 'accountNumber is required' })
        .trim()
        .regex(/^\d{4,17}$/, 'accountNumber must be 4 to 17 digits'),
      password: z.string({ error: 'password is required' }).min(1, 'password is required').max(200),
    }),
    response: payoutAccountSchema,
  },
  /** With Stripe: a Connect Express account for the seller and the link to its onboarding. */
  payoutOnboarding: {
    ...callRoutes.payoutOnboarding,
    access: 'seller',
    tag: 'payments',
    body: z.object({
      password: z.string({ error: 'password is required' }).min(1, 'password is required').max(200),
    }),
    response: z.object({ url: z.string() }),
  },
  finance: {
    ...callRoutes.finance,
    access: 'admin',
    tag: 'payments',
    query: financeQuerySchema,
    response: financeSchema,
  },
  /** The same days as CSV (`text/csv`), one row a day. */
  financeCsv: {
    ...callRoutes.financeCsv,
    access: 'admin',
    tag: 'payments',
    query: financeQuerySchema,
    response: z.string(),
  },
  /** The admin's Overview (issue 35): figures by day and the busiest models of a range. */
  overview: {
    ...callRoutes.overview,
    access: 'admin',
    tag: 'payments',
    query: overviewQuerySchema,
    response: overviewSchema,
  },
  /**
   * The same range as CSV (`text/csv`, an attachment): one row a day, or with `table=models`
   * the busiest models; text cells never start a formula.
   */
  overviewCsv: {
    ...callRoutes.overviewCsv,
    access: 'admin',
    tag: 'payments',
    query: overviewQuerySchema.safeExtend({
      table: z.enum(['days', 'models'], { error: 'table must be days or models' }).default('days'),
    }),
    response: z.string(),
  },
  conversations: {
    ...callRoutes.conversations,
    access: 'bearer',
    tag: 'notifications',
    response: z.array(conversationSummarySchema),
  },
  startConversation: {
    ...callRoutes.startConversation,
    access: 'buyer',
    tag: 'notifications',
    body: z.object({ productId: idSchema, body: messageBodySchema }),
    /** `hidden`: contact details were hidden in it (no payment yet). */
    response: z.object({ conversationId: idSchema, hidden: z.boolean() }),
  },
  conversation: {
    ...callRoutes.conversation,
    access: 'bearer',
    tag: 'notifications',
    params: idQuery,
    response: conversationSchema,
  },
  sendMessage: {
    ...callRoutes.sendMessage,
    access: 'bearer',
    tag: 'notifications',
    params: idQuery,
    body: z.object({ body: messageBodySchema }),
    response: z.object({ messageId: idSchema, hidden: z.boolean() }),
  },
  reportMessage: {
    ...callRoutes.reportMessage,
    access: 'bearer',
    tag: 'notifications',
    params: idQuery,
    body: z.object({ reason: text('reason', 500) }),
    response: ack,
  },
  reportedMessages: {
    ...callRoutes.reportedMessages,
    access: 'admin',
    tag: 'notifications',
    response: z.array(reportedMessageSchema),
  },
  liveEvents: {
    ...callRoutes.liveEvents,
    access: 'bearer',
    tag: 'notifications',
    /**
     * A stream of server-sent events (`Accept: text/event-stream`): `event: notification` when
     * something new is there for the caller; no content, the page asks the usual calls.
     */
    response: z.string(),
  },
  notifications: {
    ...callRoutes.notifications,
    access: 'bearer',
    tag: 'notifications',
    query: paginationQuerySchema,
    response: z.array(notificationSchema),
  },
  unreadNotifications: {
    ...callRoutes.unreadNotifications,
    access: 'bearer',
    tag: 'notifications',
    response: z.object({ count: z.number().int() }),
  },
  readNotifications: {
    ...callRoutes.readNotifications,
    access: 'bearer',
    tag: 'notifications',
    /** The notifications read; without `ids`, every one. */
    body: z.object({
      ids: z
        .array(idSchema, { error: 'ids must be a list of notification ids' })
        .max(100, 'ids: at most 100 at once')
        .optional(),
    }),
    response: z.object({ modifiedCount: z.number().int() }),
  },
  mailSettings: {
    ...callRoutes.mailSettings,
    access: 'bearer',
    tag: 'notifications',
    response: mailSettingsSchema,
  },
  saveMailSettings: {
    ...callRoutes.saveMailSettings,
    access: 'bearer',
    tag: 'notifications',
    body: mailSettingsSchema,
    response: mailSettingsSchema,
  },
  unsubscribe: {
    ...callRoutes.unsubscribe,
    access: 'public',
    tag: 'notifications',
    /** A mail's unsubscribe link: its account, kind and that account's mail key. */
    query: z.object({
      u: idSchema,
      kind: z.enum(NOTIFICATION_KINDS, { error: 'kind: no such kind of mail' }),
      key: z.string().regex(/^[0-9a-f]{32}$/, 'key: not a key of ours'),
    }),
    response: mailSettingsSchema,
  },
  savedSearches: {
    ...callRoutes.savedSearches,
    access: 'buyer',
    tag: 'buying',
    response: z.array(savedSearchSchema),
  },
  saveSearch: {
    ...callRoutes.saveSearch,
    access: 'buyer',
    tag: 'buying',
    body: saveSearchSchema,
    response: z.object({ insertedId: idSchema }),
  },
  editSavedSearch: {
    ...callRoutes.editSavedSearch,
    access: 'buyer',
    tag: 'buying',
    params: idQuery,
    body: editSavedSearchSchema,
    response: savedSearchSchema,
  },
  deleteSavedSearch: {
    ...callRoutes.deleteSavedSearch,
    access: 'buyer',
    tag: 'buying',
    params: idQuery,
    response: z.object({ deletedCount: z.number().int() }),
  },
  seeSavedSearch: {
    ...callRoutes.seeSavedSearch,
    access: 'buyer',
    tag: 'buying',
    params: idQuery,
    response: ack,
  },
  waitingBuyers: {
    ...callRoutes.waitingBuyers,
    access: 'seller',
    tag: 'products',
    query: waitingBuyersQuerySchema,
    /** How many buyers (accounts, never named) have a saved search this phone would match. */
    response: z.object({ buyers: z.number().int().nonnegative() }),
  },
  reportListing: {
    ...callRoutes.reportListing,
    access: 'bearer',
    tag: 'products',
    params: idQuery,
    body: reportInputSchema,
    response: ack,
  },
  reportSeller: {
    ...callRoutes.reportSeller,
    access: 'bearer',
    tag: 'users',
    params: idQuery,
    body: reportInputSchema,
    response: ack,
  },
  myReports: {
    ...callRoutes.myReports,
    access: 'bearer',
    tag: 'users',
    response: z.array(myReportSchema),
  },
  reviewQueue: {
    ...callRoutes.reviewQueue,
    access: 'admin',
    tag: 'users',
    response: z.array(reviewItemSchema),
  },
  reviewAction: {
    ...callRoutes.reviewAction,
    access: 'admin',
    tag: 'users',
    body: reviewActionInputSchema,
    response: ack,
  },
  reviewRecords: {
    ...callRoutes.reviewRecords,
    access: 'admin',
    tag: 'users',
    query: paginationQuerySchema,
    response: z.array(reviewRecordSchema),
  },
  uploadImage: {
    ...callRoutes.uploadImage,
    access: 'seller',
    tag: 'images',
    response: z.object({ success: z.boolean(), data: z.object({ url: z.string() }) }),
  },
  confirmTestPayment: {
    ...callRoutes.confirmTestPayment,
    access: 'public',
    tag: 'payments',
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
  /** Stripe's signed events (only with Stripe configured); the body is Stripe's, kept raw. */
  stripeWebhook: {
    ...callRoutes.stripeWebhook,
    access: 'public',
    tag: 'payments',
    response: z.object({ received: z.literal(true) }),
  },
  health: {
    ...callRoutes.health,
    access: 'public',
    tag: 'system',
    response: z.object({
      status: z.literal('ok'),
      database: z.literal('ok'),
      /**
       * The search's counts kept in this server (decision 034): `reading` the phones (the
       * database counts meanwhile), `ready`, or `off` (SEARCH_COUNTS=database).
       */
      searchCounts: z.enum(['ready', 'reading', 'off']),
    }),
  },
  config: {
    ...callRoutes.config,
    access: 'public',
    tag: 'system',
    response: clientConfigSchema,
  },
  vitals: {
    ...callRoutes.vitals,
    access: 'public',
    tag: 'system',
    body: vitalSchema,
    response: z.null(),
  },
} as const);
