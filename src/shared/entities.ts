/**
 * Zod schemas for every entity of spec section 3, as the API carries them.
 * Field names are the spec's, typos included (`specificatons`); ids travel as `_id`.
 */

import { z } from 'zod';
import { BULK_STATUSES } from './bulk';
import {
  CATEGORY_CODES,
  CONDITION_OPTIONS,
  ORDER_STATUS,
  PRODUCT_STATUS,
  RAM_OPTIONS,
  STORAGE_OPTIONS,
  USER_TYPES,
} from './constants';
import { NOTIFICATION_KINDS } from './notifications';
import {
  MONEY_STATES,
  ORDER_STAGES,
  ORDER_TRANSITIONS,
  PAYOUT_STATUSES,
  SELLER_MONEY_STATES,
} from './order-process';

export const idSchema = z.uuid({ error: 'id must be a valid id' });
export const categoryCodeSchema = z.enum(CATEGORY_CODES, {
  error: 'must be one of 01, 02, 03, 04, 05',
});
/** A dollar amount as the API answers it: a JSON number with at most two decimals. */
export const dollarsSchema = z.number().nonnegative();
/** Instants travel as ISO 8601 strings; the client formats them (medium date). */
export const instantSchema = z.string();

export const specificationsSchema = z.object({
  ram: z.enum(RAM_OPTIONS),
  storage: z.enum(STORAGE_OPTIONS),
  color: z.string(),
  battery: z.number().int().positive(),
});

/**
 * A phone as anyone may see it: the spec's entity without the seller's `sellerNumber` and `email`
 * (issue 29). A way to reach the seller is for their own views, the admin's and a paid sale's.
 */
export const productSchema = z.object({
  _id: idSchema,
  modelName: z.string(),
  image: z.string(),
  originalPrice: dollarsSchema,
  resellPrice: dollarsSchema,
  location: z.string(),
  description: z.string(),
  timeOfPost: instantSchema,
  timeUsed: z.number().int().nonnegative(),
  condition: z.enum(CONDITION_OPTIONS),
  sellerName: z.string(),
  categoryId: categoryCodeSchema,
  userStatus: z.string().nullable(),
  /** Public lists hold sold and available phones; only their seller sees a withdrawn one. */
  status: z.enum([
    PRODUCT_STATUS.sold,
    PRODUCT_STATUS.available,
    PRODUCT_STATUS.withdrawn,
    PRODUCT_STATUS.held,
  ]),
  specificatons: specificationsSchema,
  /** Added to the spec: what buyers said of this seller after their handovers. */
  sellerRating: z.lazy(() => ratingSummarySchema),
  /** Added: the seller's account, whose public page is `/seller/{sellerId}`. */
  sellerId: idSchema,
  /** Added: every photo in order, at most PRODUCT_PHOTOS_MAX; the first is `image`, the cover. */
  photos: z.array(z.string()),
  /** Added (issue 19): battery health in percent, when the seller stated it. */
  batteryHealth: z.number().int().nullable(),
  /** Added: the seller gave an IMEI that passed its check digit, is on no other live listing and is not blocked. */
  imeiChecked: z.boolean(),
  /** Added: the resale price before its last drop, shown struck through; null unless it dropped. */
  previousPrice: dollarsSchema.nullable(),
  /**
   * Added: the price against comparable completed sales (PRICE_GUIDE_MIN_SALES at least, else
   * null): `good` at or below their median, `high` well above it (decision 024).
   */
  priceNote: z.enum(['good', 'high']).nullable(),
});
export type Product = z.infer<typeof productSchema>;

/** A phone as its seller (My Products) or an admin sees it: the whole IMEI, and whether it is advertised. */
export const ownProductSchema = productSchema.extend({
  sellerNumber: z.string(),
  email: z.string(),
  imei: z.string().nullable(),
  advertised: z.boolean(),
  /** The admin blocked its IMEI as reported stolen: it cannot be relisted. */
  imeiBlocked: z.boolean(),
});
export type OwnProduct = z.infer<typeof ownProductSchema>;

/**
 * What phones like one sold for (issue 19): completed sales of the last PRICE_GUIDE_DAYS days of
 * the same model and storage, and of the same condition when it has enough of its own.
 */
export const priceGuideSchema = z.object({
  /** Whether the figures are of the same condition too, or of every condition. */
  basis: z.enum(['model-storage-condition', 'model-storage']),
  days: z.number().int().positive(),
  count: z.number().int().nonnegative(),
  median: dollarsSchema.nullable(),
  low: dollarsSchema.nullable(),
  high: dollarsSchema.nullable(),
  /** Each sale's price, lowest first, for the chart (at most 200). */
  prices: z.array(dollarsSchema),
});
export type PriceGuide = z.infer<typeof priceGuideSchema>;

/** Where a price stands against what phones like it sold for lately (decision 051). */
export const PRICE_VERDICTS = ['low', 'typical', 'high'] as const;
export type PriceVerdict = (typeof PRICE_VERDICTS)[number];

/**
 * A model's sold prices by week over the last PRICE_HISTORY_WEEKS weeks (issue 33, decision 051),
 * and where a price stands against the last PRICE_GUIDE_DAYS days. Figures of sales only, never
 * who bought or sold.
 */
export const priceHistorySchema = z.object({
  weeks: z.number().int().positive(),
  /** The Monday (UTC) of the first of those weeks: the chart's axis starts there. */
  since: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  /** The counted sales of the whole history, outliers left out; 0 when it does not speak. */
  count: z.number().int().nonnegative(),
  /** The lowest and highest of those sales. */
  low: dollarsSchema.nullable(),
  high: dollarsSchema.nullable(),
  /** The weeks with enough sales to show, oldest first; a week is its Monday (UTC). */
  points: z.array(
    z.object({
      week: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
      count: z.number().int().positive(),
      median: dollarsSchema,
      low: dollarsSchema,
      high: dollarsSchema,
    }),
  ),
  /**
   * The usual prices of the last `days` days, as the guide and the cards' notes count them
   * (the same condition when it has enough sales of its own): the middle half, `low` to `high`,
   * and the median. Null when those sales do not speak.
   */
  typical: z
    .object({
      basis: z.enum(['model-storage-condition', 'model-storage']),
      days: z.number().int().positive(),
      count: z.number().int().positive(),
      low: dollarsSchema,
      median: dollarsSchema,
      high: dollarsSchema,
    })
    .nullable(),
  /** Where the asked price stands: null without a price or without `typical`. */
  verdict: z.enum(PRICE_VERDICTS).nullable(),
});
export type PriceHistory = z.infer<typeof priceHistorySchema>;

/** An IMEI the admin blocked as reported stolen (issue 19); never the IMEI itself. */
export const blockedImeiSchema = z.object({
  _id: idSchema,
  imeiLast4: z.string(),
  reason: z.string(),
  blockedAt: instantSchema,
});
export type BlockedImei = z.infer<typeof blockedImeiSchema>;

/** A conversation in a person's list (issue 20): the phone, the other side, the last word. */
export const conversationSummarySchema = z.object({
  _id: idSchema,
  productId: idSchema.nullable(),
  productName: z.string(),
  /** Which side of it the caller is. */
  side: z.enum(['buyer', 'seller']),
  counterpartName: z.string(),
  lastMessage: z.object({ body: z.string(), mine: z.boolean(), at: instantSchema }).nullable(),
  unread: z.boolean(),
});
export type ConversationSummary = z.infer<typeof conversationSummarySchema>;

export const messageSchema = z.object({
  _id: idSchema,
  body: z.string(),
  mine: z.boolean(),
  senderName: z.string(),
  at: instantSchema,
  /** Contact details were hidden in it (sent before a payment). */
  hidden: z.boolean(),
  /** It asks to pay or talk outside the marketplace: shown with a warning to its receiver. */
  offPlatform: z.boolean(),
  reported: z.boolean(),
});
export type Message = z.infer<typeof messageSchema>;

/** One conversation with its messages, oldest first (the last 200). */
export const conversationSchema = conversationSummarySchema.omit({ lastMessage: true }).extend({
  /** The side the caller is on, or 'admin' reading a reported conversation. */
  side: z.enum(['buyer', 'seller', 'admin']),
  buyerName: z.string(),
  sellerName: z.string(),
  /** A payment exists: contact details are no longer hidden. */
  paid: z.boolean(),
  messages: z.array(messageSchema),
});
export type Conversation = z.infer<typeof conversationSchema>;

/** A reported message, for the admin (issue 20). */
export const reportedMessageSchema = z.object({
  _id: idSchema,
  conversationId: idSchema,
  productName: z.string(),
  body: z.string(),
  reason: z.string(),
  reportedAt: instantSchema,
  senderName: z.string(),
  senderEmail: z.string().nullable(),
});
export type ReportedMessage = z.infer<typeof reportedMessageSchema>;

/** Something that happened to a person's account, phone or sale (issue 20). */
export const notificationSchema = z.object({
  _id: idSchema,
  kind: z.enum(NOTIFICATION_KINDS),
  text: z.string(),
  /** The page it is about, on this site ('/dashboard/orders/…'). */
  link: z.string(),
  createdAt: instantSchema,
  read: z.boolean(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const advertisedItemSchema = z.object({
  _id: idSchema,
  modelName: z.string(),
  image: z.string(),
  price: dollarsSchema,
  feature: specificationsSchema,
  advertiseId: idSchema,
  location: z.string(),
  timeUsed: z.number().int().nonnegative(),
  categoryId: categoryCodeSchema,
});
export type AdvertisedItem = z.infer<typeof advertisedItemSchema>;

export const categorySchema = z.object({
  _id: idSchema,
  name: z.string(),
  categoryId: categoryCodeSchema,
});
export type Category = z.infer<typeof categorySchema>;

export const wishListItemSchema = z.object({
  _id: idSchema,
  productId: idSchema,
  productName: z.string(),
  image: z.string(),
  price: dollarsSchema,
  email: z.string(),
  categoryId: categoryCodeSchema,
});
export type WishListItem = z.infer<typeof wishListItemSchema>;

export const orderSchema = z.object({
  _id: idSchema,
  userName: z.string(),
  productName: z.string(),
  price: dollarsSchema,
  email: z.string(),
  location: z.string(),
  number: z.string(),
  productId: idSchema,
  image: z.string(),
  status: z.enum([ORDER_STATUS.paid, ORDER_STATUS.unpaid]),
  /** Added to the spec: where the sale is (src/shared/order-process.ts). */
  stage: z.enum(ORDER_STAGES),
  /** Added: a booked order whose phone was sold to another buyer (or withdrawn) meanwhile. */
  soldElsewhere: z.boolean(),
});
export type Order = z.infer<typeof orderSchema>;

/** A seller's or buyer's ratings from the other side of their completed sales. */
export const ratingSummarySchema = z.object({
  average: z.number().nullable(),
  count: z.number().int().nonnegative(),
});
export type RatingSummary = z.infer<typeof ratingSummarySchema>;

/**
 * A seller as anyone may see them (not in the spec), on their page `/seller/{_id}` and a phone's:
 * never an e-mail address or a phone number.
 */
export const sellerProfileSchema = z.object({
  _id: idSchema,
  name: z.string(),
  verified: z.boolean(),
  memberSince: instantSchema,
  rating: ratingSummarySchema,
  /** Phones of theirs that buyers have paid for. */
  soldCount: z.number().int().nonnegative(),
  /** Phones of theirs for sale now. */
  forSaleCount: z.number().int().nonnegative(),
});
export type SellerProfile = z.infer<typeof sellerProfileSchema>;

const ratingSchema = z.object({ stars: z.number().int(), comment: z.string() });

/**
 * One sale as its buyer, its seller or an admin sees it (not in the spec): the order with its
 * stage and timeline, the other side, the meeting, and what the viewer may do now. Phone numbers
 * show once the buyer has paid; the handover code only to the buyer, while it is needed.
 */
export const saleSchema = z.object({
  _id: idSchema,
  productId: idSchema,
  productName: z.string(),
  image: z.string(),
  price: dollarsSchema,
  status: z.enum([ORDER_STATUS.paid, ORDER_STATUS.unpaid]),
  stage: z.enum(ORDER_STAGES),
  /** The viewer's side of the sale. */
  side: z.enum(['buyer', 'seller', 'admin']),
  /** The transitions the viewer may take now (src/shared/order-process.ts names them). */
  actions: z.array(z.enum(ORDER_TRANSITIONS)),
  meetingPoint: z.string(),
  bookedAt: instantSchema,
  paidAt: instantSchema.nullable(),
  holdExpiresAt: instantSchema.nullable(),
  completedAt: instantSchema.nullable(),
  endedAt: instantSchema.nullable(),
  cancelledBy: z.enum(['buyer', 'seller']).nullable(),
  soldElsewhere: z.boolean(),
  buyer: z.object({
    name: z.string(),
    email: z.string().nullable(),
    number: z.string().nullable(),
    rating: ratingSummarySchema,
  }),
  seller: z.object({
    name: z.string(),
    email: z.string().nullable(),
    number: z.string().nullable(),
    rating: ratingSummarySchema,
  }),
  handoverCode: z.string().nullable(),
  /** Added (issue 19): the phone's IMEI's last four digits, to the buyer once paid, the seller and an admin. */
  imeiLast4: z.string().nullable(),
  handoverLockedUntil: instantSchema.nullable(),
  transactionId: z.string().nullable(),
  money: z.enum(MONEY_STATES).nullable(),
  dispute: z
    .object({
      reason: z.string(),
      reportedAt: instantSchema,
      resolution: z.enum(['refunded', 'closed']).nullable(),
      resolvedAt: instantSchema.nullable(),
    })
    .nullable(),
  ratings: z.object({ byBuyer: ratingSchema.nullable(), bySeller: ratingSchema.nullable() }),
  /**
   * Added (issue 30), to the seller and an admin (null to the buyer): the marketplace's fee and the
   * seller's share, fixed at the handover (null before it: the pages show the fee it would be),
   * and where that share is now.
   */
  fee: dollarsSchema.nullable(),
  net: dollarsSchema.nullable(),
  sellerMoney: z.enum(SELLER_MONEY_STATES).nullable(),
});
export type Sale = z.infer<typeof saleSchema>;

/** A seller's payout account, as its owner sees it: never the full number. */
export const payoutAccountSchema = z.object({
  kind: z.enum(['bank', 'stripe']),
  /** 'Bank account •••• 6789' or 'Stripe account •••• 4Xyz'. */
  label: z.string(),
  /** `pending`: Stripe still needs details from the seller; `restricted`: Stripe paused it. */
  status: z.enum(['active', 'pending', 'restricted']),
  /** Payouts wait until then after the account was changed (takeover protection). */
  payoutsHeldUntil: instantSchema.nullable(),
  addedAt: instantSchema,
});
export type PayoutAccount = z.infer<typeof payoutAccountSchema>;

export const payoutSchema = z.object({
  _id: idSchema,
  amount: dollarsSchema,
  status: z.enum(PAYOUT_STATUSES),
  /** Why the bank or Stripe refused it (the money went back to the balance). */
  failureReason: z.string().nullable(),
  createdAt: instantSchema,
  settledAt: instantSchema.nullable(),
  sales: z.array(z.object({ orderId: idSchema, productName: z.string(), net: dollarsSchema })),
});
export type Payout = z.infer<typeof payoutSchema>;

/** The seller's money (issue 30): every figure is derived from the ledger's entries. */
export const payoutSummarySchema = z.object({
  /** Sold and handed over, waiting for the buyer's report window to end. */
  pending: dollarsSchema,
  /** Frozen by a buyer's report until the admin decides. */
  frozen: dollarsSchema,
  /** The seller's to be paid out; negative after a refund of money paid out already. */
  available: z.number(),
  /** On its way to the seller's account now. */
  sending: dollarsSchema,
  paidOut: dollarsSchema,
  account: payoutAccountSchema.nullable(),
  /** When the next payout runs, if there will be one (null: nothing to pay, or no account). */
  nextPayoutAt: instantSchema.nullable(),
  schedule: z.string(),
  payouts: z.array(payoutSchema),
  /** Net earnings by week (Monday, UTC), the last twelve weeks, oldest first. */
  weeks: z.array(z.object({ weekStart: z.string(), net: dollarsSchema })),
});
export type PayoutSummary = z.infer<typeof payoutSummarySchema>;

/** The admin's figures (issue 30), by day (UTC). */
export const financeDaySchema = z.object({
  day: z.string(),
  /** Sales handed over that day: their count and price. */
  sales: z.number().int().nonnegative(),
  volume: dollarsSchema,
  fees: dollarsSchema,
  refunds: dollarsSchema,
  paidOut: dollarsSchema,
  failedPayouts: z.number().int().nonnegative(),
});
export const financeSchema = z.object({
  from: z.string(),
  to: z.string(),
  days: z.array(financeDaySchema),
  /** Now: money held on cards, owed to sellers (pending, frozen, available), being paid out. */
  now: z.object({
    held: dollarsSchema,
    pending: dollarsSchema,
    frozen: dollarsSchema,
    available: z.number(),
    sending: dollarsSchema,
    failedPayouts: z.number().int().nonnegative(),
    sellersWithoutAccount: z.number().int().nonnegative(),
  }),
});
export type Finance = z.infer<typeof financeSchema>;

/**
 * The admin's Overview (issue 35, decision 056): what happened each day (UTC) of a range, and
 * the models sold most in it.
 */
export const overviewDaySchema = z.object({
  day: z.string(),
  /** Phones listed that day. */
  listings: z.number().int().nonnegative(),
  /** Orders paid that day (whatever came after), and the sum of their prices. */
  sales: z.number().int().nonnegative(),
  volume: dollarsSchema,
  /** Sales handed over that day (the money captured). */
  completed: z.number().int().nonnegative(),
  /** Accounts made that day, by type (admins are not buyers). */
  newSellers: z.number().int().nonnegative(),
  newBuyers: z.number().int().nonnegative(),
  /** Problems buyers reported after a handover, and reports of listings and sellers. */
  disputes: z.number().int().nonnegative(),
  reports: z.number().int().nonnegative(),
});
export const overviewModelSchema = z.object({
  /** The model as sellers wrote it most often (grouped as the price guide groups it). */
  model: z.string(),
  storage: z.string().nullable(),
  sales: z.number().int().positive(),
  median: dollarsSchema,
});
export const overviewSchema = z.object({
  from: z.string(),
  to: z.string(),
  days: z.array(overviewDaySchema),
  models: z.array(overviewModelSchema),
});
export type Overview = z.infer<typeof overviewSchema>;
export type OverviewDay = z.infer<typeof overviewDaySchema>;

/** A phone the signed-in buyer has a live order for (the catalog marks it "booked by you"). */
export const bookingSchema = z.object({
  orderId: idSchema,
  productId: idSchema,
  stage: z.enum(ORDER_STAGES),
});
export type Booking = z.infer<typeof bookingSchema>;

export const paymentRecordSchema = z.object({
  transactionId: z.string(),
  email: z.string(),
  price: dollarsSchema,
  orderId: idSchema,
  productName: z.string(),
  productId: idSchema,
});
export type PaymentRecord = z.infer<typeof paymentRecordSchema>;

export const userTypeSchema = z.enum(USER_TYPES);
export const userSchema = z.object({
  _id: idSchema,
  name: z.string(),
  email: z.string(),
  type: userTypeSchema,
  userStatus: z.string().nullable(),
});
export type User = z.infer<typeof userSchema>;

/**
 * An address that may not have an account (not in the spec): set when the admin deletes or bans
 * an account, until the admin lifts it.
 */
export const bannedAddressSchema = z.object({
  email: z.string(),
  reason: z.enum(['deleted', 'banned']),
  bannedAt: instantSchema,
});
export type BannedAddress = z.infer<typeof bannedAddressSchema>;

export const blogItemSchema = z.object({
  id: z.string(),
  question: z.string(),
  answer: z.string(),
});
export type BlogItem = z.infer<typeof blogItemSchema>;

export const identityUserSchema = z.object({
  uid: z.string(),
  email: z.string(),
  displayName: z.string().nullable(),
});
export type IdentityUser = z.infer<typeof identityUserSchema>;

const daySchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** What sells (issue 35, decision 055): a seller's own figures, on My Products. */
export const whatSellsSchema = z.object({
  /** Per listing, the seller's newest first. */
  listings: z.array(
    z.object({
      _id: idSchema,
      /** People who opened its page: one a day each, never the seller, never robots. */
      views: z.number().int().nonnegative(),
      /** Wish lists it is on. */
      wishLists: z.number().int().nonnegative(),
      /** Conversations buyers started about it. */
      questions: z.number().int().nonnegative(),
      /** Bookings made of it, whatever became of them. */
      bookings: z.number().int().nonnegative(),
      /** Whole days from listing to now, or to the booking that sold it. */
      daysListed: z.number().int().nonnegative(),
    }),
  ),
  /** Per model and storage the seller lists: the market's figures of its last `days` days. */
  models: z.array(
    z.object({
      modelName: z.string(),
      storage: z.string(),
      /** Median whole days from listing to the booking of the sale; null without enough sales. */
      medianDaysToSell: z.number().nonnegative().nullable(),
      /** The median price of those sold within `quickDays` days; null without enough of them. */
      quickSalePrice: dollarsSchema.nullable(),
    }),
  ),
  days: z.number().int().positive(),
  quickDays: z.number().int().positive(),
  /** The seller's views and completed sales by week (from Monday, UTC), oldest first. */
  weeks: z.array(
    z.object({
      week: daySchema,
      views: z.number().int().nonnegative(),
      sales: z.number().int().nonnegative(),
    }),
  ),
});
export type WhatSells = z.infer<typeof whatSellsSchema>;

/** A seller's bulk upload (issue 35, decision 057): its state and figures, for the progress bar. */
export const bulkUploadSchema = z.object({
  id: idSchema,
  status: z.enum(BULK_STATUSES),
  /** Why the file was refused as a whole, or why the preview expired. */
  message: z.string().nullable(),
  createdAt: instantSchema,
  rowsTotal: z.number().int().nonnegative(),
  /** Rows with no problem, which listing lists (none while the photos are read). */
  rowsReady: z.number().int().nonnegative(),
  /** Rows tried while listing. */
  rowsDone: z.number().int().nonnegative(),
  rowsListed: z.number().int().nonnegative(),
  photosTotal: z.number().int().nonnegative(),
  photosDone: z.number().int().nonnegative(),
});

/** A row of a bulk upload as the preview shows it: its problems by column, then its outcome. */
export const bulkRowSchema = z.object({
  row: z.number().int().positive(),
  model: z.string(),
  problems: z.array(z.object({ column: z.string(), message: z.string() })),
  outcome: z
    .union([
      z.object({ listed: z.literal(true), productId: idSchema }),
      z.object({ listed: z.literal(false), message: z.string() }),
    ])
    .optional(),
});
