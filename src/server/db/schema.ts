/**
 * The database schema for every entity of spec section 3.
 * Money is stored in integer cents; every listable table has a `seq` identity that orders
 * rows newest first and serves as the keyset-pagination cursor.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bit,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

import { BULK_STATUSES, type BulkProblem } from '../../shared/bulk';
import { NOTIFICATION_KINDS } from '../../shared/notifications';
import { MONEY_STATES, ORDER_STAGES, PAYOUT_STATUSES } from '../../shared/order-process';
import {
  REPORT_REASONS,
  REPORT_STATUSES,
  REVIEW_ACTIONS,
  REVIEW_TARGETS,
  RISK_SUBJECTS,
} from '../../shared/risk-names';
import { LEDGER_KINDS } from '../ledger/accounts';

/** PostgreSQL's full-text document type; the app only ever matches it in SQL. */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

const seq = () => bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity().notNull();
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    seq: seq(),
    name: text('name').notNull(),
    email: text('email').notNull().unique('users_email_key'),
    type: text('type', { enum: ['user', 'seller'] }).notNull(),
    userStatus: text('user_status'),
    /** Granted by the operator (`npm run admin`) or by the demo seed that created the account. */
    isAdmin: boolean('is_admin').notNull().default(false),
    /** The kinds of notification this person does not want mailed (issue 20). */
    mailOff: text('mail_off').array().notNull().default(sql`'{}'::text[]`),
    /** Last seen with a live page open (pinged by any server): a message is then not mailed. */
    liveSeenAt: timestamp('live_seen_at', { withTimezone: true }),
    /** The key of this account's unsubscribe links: a mail's link works without signing in. */
    mailKey: text('mail_key').notNull().default(sql`replace(gen_random_uuid()::text, '-', '')`),
    createdAt: createdAt(),
  },
  (t) => [
    index('users_type_seq_idx').on(t.type, t.seq.desc()),
    check('users_type_check', sql`${t.type} in ('user', 'seller')`),
  ],
);

export const categories = pgTable('categories', {
  id: uuid('id').primaryKey().defaultRandom(),
  categoryId: text('category_id').notNull().unique(),
  name: text('name').notNull(),
});

export const products = pgTable(
  'products',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    seq: seq(),
    categoryId: text('category_id')
      .notNull()
      .references(() => categories.categoryId),
    modelName: text('model_name').notNull(),
    image: text('image').notNull(),
    originalPriceCents: integer('original_price_cents').notNull(),
    resellPriceCents: integer('resell_price_cents').notNull(),
    location: text('location').notNull(),
    description: text('description').notNull(),
    timeUsed: integer('time_used').notNull(),
    condition: text('condition').notNull(),
    ram: text('ram').notNull(),
    storage: text('storage').notNull(),
    color: text('color').notNull(),
    battery: integer('battery').notNull(),
    sellerName: text('seller_name').notNull(),
    sellerNumber: text('seller_number').notNull(),
    sellerEmail: text('seller_email')
      .notNull()
      .references(() => users.email, { onDelete: 'cascade', onUpdate: 'cascade' }),
    /** Withdrawn (issue 19): off the market, kept for its seller to relist (not in the spec). */
    status: text('status', { enum: ['available', 'sold', 'withdrawn', 'held'] })
      .notNull()
      .default('available'),
    /** Every photo in order (issue 18); the first is `image`, the cover. */
    photos: text('photos').array().notNull(),
    /** Battery health in percent (issue 19), optional: 50 to 100. */
    batteryHealth: integer('battery_health'),
    /**
     * The IMEI keyed-hashed (HMAC-SHA256 under the server's IMEI key, decision 024): duplicates and
     * blocked IMEIs are found by it, and a copy of the table reveals no IMEI.
     */
    imeiHash: text('imei_hash'),
    /** The IMEI's last four digits, which a buyer who paid compares at the handover. */
    imeiLast4: text('imei_last4'),
    /** The whole IMEI sealed (AES-256-GCM under the IMEI key), for its seller and the admin. */
    imeiSealed: text('imei_sealed'),
    /** The resale price before its last drop (shown struck through); null unless it dropped. */
    previousPriceCents: integer('previous_price_cents'),
    /**
     * The model as comparable sales match it (the price guide): lower case, spaces left out
     * ("iPhone14" is "iPhone 14", decision 035).
     */
    modelKey: text('model_key')
      .notNull()
      .generatedAlwaysAs(sql`lower(regexp_replace(model_name, '[[:space:]]+', '', 'g'))`),
    updatedAt: timestamp('updated_at', { withTimezone: true }),
    /** The words of model and description, as the search matches them typed (full text). */
    searchVector: tsvector('search_vector')
      .notNull()
      .generatedAlwaysAs(sql`to_tsvector('simple', model_name || ' ' || description)`),
    createdAt: createdAt(),
  },
  (t) => [
    index('products_category_seq_idx').on(t.categoryId, t.seq.desc()),
    index('products_seller_seq_idx').on(t.sellerEmail, t.seq.desc()),
    // The search (repositories/search.ts): its words with the filters most searches set, in one
    // GIN index (btree_gin) so that they meet in the index, not in the table; the location
    // filter's trigrams; and its three sorts, each over every phone and over the unsold ones it
    // shows by default. Close matches look words up in search_terms (decision 025).
    index('products_search_idx').using(
      'gin',
      t.searchVector,
      t.status,
      t.categoryId,
      t.storage,
      t.ram,
      t.condition,
    ),
    index('products_location_trgm_idx').using('gin', t.location.op('gin_trgm_ops')),
    index('products_seq_idx').on(t.seq.desc()),
    index('products_price_seq_idx').on(t.resellPriceCents, t.seq),
    index('products_available_seq_idx').on(t.seq.desc()).where(sql`${t.status} = 'available'`),
    index('products_available_price_seq_idx')
      .on(t.resellPriceCents, t.seq)
      .where(sql`${t.status} = 'available'`),
    // A phone's similar phones for sale (repositories/similar.ts, decision 050): walked from its
    // price outwards among those of its model and storage, then of its brand.
    index('products_available_model_price_idx')
      .on(t.modelKey, t.storage, t.resellPriceCents)
      .where(sql`${t.status} = 'available'`),
    index('products_available_category_price_idx')
      .on(t.categoryId, t.resellPriceCents)
      .where(sql`${t.status} = 'available'`),
    // One live listing per IMEI; a blocked IMEI's listings are found by its hash.
    uniqueIndex('products_imei_live_key')
      .on(t.imeiHash)
      .where(sql`${t.status} = 'available' and ${t.imeiHash} is not null`),
    index('products_imei_idx').on(t.imeiHash),
    // Whether any phone still shows a photo, for the sweep of loose photos (images/loose-photos.ts).
    index('products_photos_idx').using('gin', t.photos),
    check('products_status_check', sql`${t.status} in ('available', 'sold', 'withdrawn', 'held')`),
    check(
      'products_battery_health_check',
      sql`${t.batteryHealth} is null or ${t.batteryHealth} between 50 and 100`,
    ),
    check('products_prices_check', sql`${t.originalPriceCents} > 0 and ${t.resellPriceCents} > 0`),
    check(
      'products_photos_check',
      sql`cardinality(${t.photos}) between 1 and 6 and ${t.photos}[1] = ${t.image}`,
    ),
  ],
);

/**
 * Every price a phone was offered at, and from when (issue 19): a lower price is shown against the
 * lowest price of the 30 days before it, so a price raised for a moment cannot be "was" later.
 */
export const priceHistory = pgTable(
  'price_history',
  {
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    priceCents: integer('price_cents').notNull(),
    setAt: timestamp('set_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('price_history_product_idx').on(t.productId, t.setAt.desc())],
);

/**
 * Every word of every phone's model and description, once (issue 18): close matches look up the
 * words like a mistyped one here, in a table of thousands, instead of in a million phones' texts.
 * Triggers of migration 0008 keep it filled; a word no phone has any more stays (it then finds
 * nothing).
 */
export const searchTerms = pgTable('search_terms', { term: text('term').primaryKey() }, (t) => [
  index('search_terms_term_trgm_idx').using('gin', t.term.op('gin_trgm_ops')),
]);

/**
 * What the search's counts (decision 034) read of each phone for sale, and only of those
 * (decision 061): kept by the triggers of migration 0034 in the statement that changes a phone,
 * so a server's start reads a table of the phones for sale instead of every phone ever listed,
 * and each phone's words once made, as one string (words never hold a blank).
 */
export const searchPhones = pgTable('search_phones', {
  seq: bigint('seq', { mode: 'number' }).primaryKey(),
  categoryId: text('category_id').notNull(),
  ram: text('ram').notNull(),
  storage: text('storage').notNull(),
  condition: text('condition').notNull(),
  resellPriceCents: integer('resell_price_cents').notNull(),
  battery: integer('battery').notNull(),
  batteryHealth: integer('battery_health'),
  location: text('location').notNull(),
  sellerEmail: text('seller_email').notNull(),
  words: text('words').notNull(),
});

/**
 * IMEIs the admin blocked as reported stolen (issue 19): kept only as the same keyed hash as a
 * product's, with the last four digits to tell them apart.
 */
export const blockedImeis = pgTable(
  'blocked_imeis',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    seq: seq(),
    imeiHash: text('imei_hash').notNull().unique('blocked_imeis_hash_key'),
    imeiLast4: text('imei_last4').notNull(),
    reason: text('reason').notNull(),
    blockedBy: uuid('blocked_by'),
    createdAt: createdAt(),
  },
  (t) => [index('blocked_imeis_seq_idx').on(t.seq.desc())],
);

export const advertisements = pgTable(
  'advertisements',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    seq: seq(),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('advertisements_product_key').on(t.productId),
    index('advertisements_seq_idx').on(t.seq.desc()),
  ],
);

export const wishListItems = pgTable(
  'wishlist_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    seq: seq(),
    email: text('email')
      .notNull()
      .references(() => users.email, { onDelete: 'cascade', onUpdate: 'cascade' }),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('wishlist_items_email_product_key').on(t.email, t.productId),
    index('wishlist_items_email_seq_idx').on(t.email, t.seq.desc()),
    // Who keeps a phone: told of its price drops and of its live changes (decision 043).
    index('wishlist_items_product_idx').on(t.productId),
  ],
);

/**
 * Orders are financial records once paid: they keep a snapshot of what was bought and
 * reference neither the product nor the buyer by foreign key, so deleting either keeps them.
 */
export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    seq: seq(),
    /**
     * The buyer's account (users.id). A person's history is keyed on the account, never the
     * e-mail: an account deleted and an address signed up again is somebody else. Null for the
     * orders of accounts deleted before this column existed.
     */
    buyerId: uuid('buyer_id'),
    email: text('email').notNull(),
    userName: text('user_name').notNull(),
    productId: uuid('product_id').notNull(),
    productName: text('product_name').notNull(),
    image: text('image').notNull(),
    priceCents: integer('price_cents').notNull(),
    location: text('location').notNull(),
    number: text('number').notNull(),
    /** The spec's field: 'paid' from payment on, whatever the stage after it. */
    status: text('status', { enum: ['unpaid', 'paid'] })
      .notNull()
      .default('unpaid'),
    /** Where the sale is in the order process (src/shared/order-process.ts). */
    stage: text('stage', { enum: ORDER_STAGES }).notNull().default('booked'),
    /** The seller as the buyer will meet them, taken from the phone at booking. */
    sellerId: uuid('seller_id'),
    sellerEmail: text('seller_email'),
    sellerName: text('seller_name'),
    sellerNumber: text('seller_number'),
    /** Six digits the buyer gives the seller at the handover; set when the payment is held. */
    handoverCode: text('handover_code'),
    /** Wrong handover codes in all: every fifth locks the code a while, the fifteenth cancels. */
    handoverFailures: integer('handover_failures').notNull().default(0),
    handoverLockedUntil: timestamp('handover_locked_until', { withTimezone: true }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    holdExpiresAt: timestamp('hold_expires_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /**
     * What the price guide compares a sale by (issue 19), kept with the sale as its name is: the
     * model as `products.model_key` normalises it, and the storage and condition at booking.
     */
    modelKey: text('model_key')
      .notNull()
      .generatedAlwaysAs(sql`lower(regexp_replace(product_name, '[[:space:]]+', '', 'g'))`),
    storage: text('storage'),
    condition: text('condition'),
    /** When the sale ended without a handover (cancelled or expired) or was refunded. */
    endedAt: timestamp('ended_at', { withTimezone: true }),
    cancelledBy: text('cancelled_by', { enum: ['buyer', 'seller'] }),
    /**
     * Set at the handover (issue 29, decision 038): true when buyer and seller were not found
     * related (no client address in common, no card paying the seller from two buyer accounts).
     * Only such sales count in the price guide, the price notes and ratings.
     */
    armsLength: boolean('arms_length'),
    /** The marketplace's fee on the sale, fixed at the handover (issue 30); null before it. */
    feeCents: integer('fee_cents'),
    /**
     * When the seller's share of a completed sale becomes theirs to pay out (the funds hold after
     * the handover); cleared once it did, or a report froze it. The timed work's index.
     */
    fundsDueAt: timestamp('funds_due_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    // One live booking per account and phone; a cancelled or expired sale leaves room for another.
    uniqueIndex('orders_buyer_product_key')
      .on(t.buyerId, t.productId)
      .where(sql`${t.stage} in ('booked', 'paid')`),
    index('orders_buyer_seq_idx').on(t.buyerId, t.seq.desc()),
    index('orders_seller_seq_idx').on(t.sellerId, t.seq.desc()),
    index('orders_product_idx').on(t.productId),
    // The price guide and the cards' price note: a model and storage's completed sales by date.
    index('orders_comparable_idx')
      .on(t.modelKey, t.storage, t.completedAt)
      .where(sql`${t.stage} = 'completed' and ${t.armsLength}`),
    index('orders_image_idx').on(t.image),
    index('orders_hold_idx').on(t.holdExpiresAt).where(sql`${t.stage} = 'paid'`),
    index('orders_funds_due_idx').on(t.fundsDueAt).where(sql`${t.fundsDueAt} is not null`),
    check('orders_status_check', sql`${t.status} in ('unpaid', 'paid')`),
    // The spec's status and the stage say the same about payment: unpaid exactly while booked.
    check('orders_status_stage_check', sql`(${t.status} = 'unpaid') = (${t.stage} = 'booked')`),
    check(
      'orders_stage_check',
      sql`${t.stage} in ('booked', 'paid', 'completed', 'cancelled', 'expired', 'disputed', 'refunded')`,
    ),
  ],
);

/**
 * A payment and where its money is. `held`: the card is authorised; `captured`: the seller is
 * paid; `released`: the hold was voided; `refunded`: a captured amount went back. The three
 * `-ing` states are decided but not yet confirmed by the provider: the transition that decides
 * writes them in its transaction, then the provider is asked, then the final state is written;
 * the timed work finishes any step a crash interrupted (the provider calls are idempotent).
 */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    seq: seq(),
    transactionId: text('transaction_id').notNull(),
    email: text('email').notNull(),
    priceCents: integer('price_cents').notNull(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id),
    productName: text('product_name').notNull(),
    productId: uuid('product_id').notNull(),
    money: text('money', { enum: MONEY_STATES }).notNull().default('held'),
    settledAt: timestamp('settled_at', { withTimezone: true }),
    /** The paying card's fingerprint, as the provider answers it (decision 038); null if none. */
    cardFingerprint: text('card_fingerprint'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('payments_transaction_key').on(t.transactionId),
    uniqueIndex('payments_order_key').on(t.orderId),
    // The cards a seller paid with as a buyer, for the handover's relatedness check.
    index('payments_card_fingerprint_idx')
      .on(t.cardFingerprint)
      .where(sql`${t.cardFingerprint} is not null`),
    index('payments_unsettled_idx')
      .on(t.seq)
      .where(sql`${t.money} in ('capturing', 'releasing', 'refunding')`),
    check(
      'payments_money_check',
      sql`${t.money} in ('held', 'capturing', 'captured', 'releasing', 'released', 'refunding', 'refunded')`,
    ),
  ],
);

/** A problem the buyer reported after the handover, and the admin's decision on it. */
export const disputes = pgTable(
  'disputes',
  {
    orderId: uuid('order_id')
      .primaryKey()
      .references(() => orders.id),
    seq: seq(),
    reason: text('reason').notNull(),
    resolution: text('resolution', { enum: ['refunded', 'closed'] }),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('disputes_seq_idx').on(t.seq.desc()),
    check('disputes_resolution_check', sql`${t.resolution} in ('refunded', 'closed')`),
  ],
);

/** One rating per side of a completed sale: the buyer rates the seller and the other way round. */
export const ratings = pgTable(
  'ratings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id),
    /** Which side of the sale gave it. */
    by: text('by', { enum: ['buyer', 'seller'] }).notNull(),
    /** The rated account (users.id); its ratings go with it when it is deleted. */
    rateeId: uuid('ratee_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    stars: integer('stars').notNull(),
    comment: text('comment').notNull().default(''),
    /** The account that gave it (the order's buyer or seller when it was given). */
    raterId: uuid('rater_id'),
    /**
     * Whether it counts in the rated account's summary (issue 29, decision 038): the latest of
     * one rater for one rated account, on a sale between unrelated accounts.
     */
    counts: boolean('counts').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ratings_order_by_key').on(t.orderId, t.by),
    index('ratings_ratee_idx').on(t.rateeId, t.by),
    uniqueIndex('ratings_pair_counted_key').on(t.raterId, t.rateeId, t.by).where(sql`${t.counts}`),
    index('ratings_counted_idx').on(t.rateeId, t.by, t.stars).where(sql`${t.counts}`),
    check('ratings_by_check', sql`${t.by} in ('buyer', 'seller')`),
    check('ratings_stars_check', sql`${t.stars} between 1 and 5`),
  ],
);

/**
 * Addresses that may not have an account: set when the admin deletes or bans an account, lifted
 * by the admin. Sign-up, sign-in with Google, saving a record and getting a token all refuse them.
 */
export const bannedEmails = pgTable(
  'banned_emails',
  {
    email: text('email').primaryKey(),
    seq: seq(),
    reason: text('reason', { enum: ['deleted', 'banned'] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('banned_emails_seq_idx').on(t.seq.desc()),
    check('banned_emails_reason_check', sql`${t.reason} in ('deleted', 'banned')`),
  ],
);

/**
 * The client addresses each account acted from (issue 29, decision 038), as keyed fingerprints
 * (never the address): at sign-up or sign-in, listing, booking and paying. Two accounts seen from
 * one address are related; their sales and ratings do not count as the market's.
 */
export const accountAddresses = pgTable(
  'account_addresses',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    addressHash: text('address_hash').notNull(),
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'account_addresses_pkey', columns: [t.userId, t.addressHash] }),
    index('account_addresses_hash_idx').on(t.addressHash),
  ],
);

/**
 * The devices each account acted from (issue 34, decision 052's addendum): a browser that came
 * back with our device cookie, as the keyed fingerprint of its random id (never the id), where the
 * account's client address is noted. Only ties to a banned account's devices read it; the most
 * recent DEVICE_MAX_PER_ACCOUNT of an account are kept (a client mints cookies at will).
 */
export const accountDevices = pgTable(
  'account_devices',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deviceHash: text('device_hash').notNull(),
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'account_devices_pkey', columns: [t.userId, t.deviceHash] }),
    index('account_devices_hash_idx').on(t.deviceHash),
  ],
);

/**
 * Photos the embedded image host stored that may belong to no phone (issue 19, decision 026): each
 * upload, and each photo a phone let go of (removed, or its phone deleted). Once `check_after` has
 * passed, the sweep forgets a photo some phone or order shows, and removes the files of one none
 * shows, keeping the row `swept_at` for a while so a form still naming it is told to add it again.
 */
export const loosePhotos = pgTable(
  'loose_photos',
  {
    url: text('url').primaryKey(),
    checkAfter: timestamp('check_after', { withTimezone: true }).notNull(),
    sweptAt: timestamp('swept_at', { withTimezone: true }),
  },
  (t) => [
    index('loose_photos_due_idx').on(t.checkAfter).where(sql`${t.sweptAt} is null`),
    index('loose_photos_swept_idx').on(t.sweptAt).where(sql`${t.sweptAt} is not null`),
  ],
);

/**
 * A buyer's questions to a seller about one phone, and the answers (issue 20): one conversation
 * per phone and buyer, kept when the phone is deleted (its name stays).
 */
export const conversations = pgTable(
  'conversations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    seq: seq(),
    productId: uuid('product_id').references(() => products.id, { onDelete: 'set null' }),
    productName: text('product_name').notNull(),
    buyerId: uuid('buyer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sellerId: uuid('seller_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull().defaultNow(),
    buyerReadAt: timestamp('buyer_read_at', { withTimezone: true }),
    sellerReadAt: timestamp('seller_read_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('conversations_product_buyer_key').on(t.productId, t.buyerId),
    index('conversations_buyer_idx').on(t.buyerId, t.lastMessageAt.desc()),
    index('conversations_seller_idx').on(t.sellerId, t.lastMessageAt.desc()),
  ],
);

/** One message; contact details were hidden in `body` before it was stored when `hidden`. */
export const messages = pgTable(
  'messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    seq: seq(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    senderId: uuid('sender_id').references(() => users.id, { onDelete: 'set null' }),
    body: text('body').notNull(),
    hidden: boolean('hidden').notNull().default(false),
    /** It asks to pay or talk outside the marketplace (issue 34): its receiver is warned. */
    offPlatform: boolean('off_platform').notNull().default(false),
    reportedAt: timestamp('reported_at', { withTimezone: true }),
    reportReason: text('report_reason'),
    createdAt: createdAt(),
  },
  (t) => [
    index('messages_conversation_seq_idx').on(t.conversationId, t.seq),
    index('messages_reported_idx').on(t.reportedAt).where(sql`${t.reportedAt} is not null`),
  ],
);

/** What happened to a person's account, phone or sale, for the bell (issue 20). */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    seq: seq(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: NOTIFICATION_KINDS }).notNull(),
    text: text('text').notNull(),
    link: text('link').notNull(),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('notifications_user_seq_idx').on(t.userId, t.seq.desc()),
    index('notifications_unread_idx').on(t.userId).where(sql`${t.readAt} is null`),
  ],
);

/**
 * Mail waiting to leave, and mail sent (issue 20, decision 027): written in the transaction of
 * what it tells, then handed to the transport by whichever server's delivery claims it first
 * (`next_attempt_at` moves ahead as a lease while a send is under way, so a crash mid-send
 * retries it). Kept a month after it is sent or given up.
 */
export const outboxMails = pgTable(
  'outbox_mails',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    toAddress: text('to_address').notNull(),
    /** What it is about (reset-password, verify-email, a notification's kind). */
    kind: text('kind').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body').notNull(),
    headers: jsonb('headers').$type<Record<string, string>>().notNull().default({}),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    gaveUpAt: timestamp('gave_up_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('outbox_mails_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.sentAt} is null and ${t.gaveUpAt} is null`),
    index('outbox_mails_to_kind_idx').on(t.toAddress, t.kind, t.createdAt),
    // The metrics' count of mail given up, at every scrape (decision 030).
    index('outbox_mails_given_up_idx').on(t.gaveUpAt).where(sql`${t.gaveUpAt} is not null`),
  ],
);

/*
 * The identity provider's tables (Better Auth): property names are Better Auth's field names.
 * An identity and the product's user record share the e-mail address.
 */
export const authUsers = pgTable('auth_users', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull().unique('auth_users_email_key'),
  emailVerified: boolean('email_verified').notNull().default(false),
  image: text('image'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const authSessions = pgTable(
  'auth_sessions',
  {
    id: text('id').primaryKey(),
    token: text('token').notNull().unique('auth_sessions_token_key'),
    userId: text('user_id')
      .notNull()
      .references(() => authUsers.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('auth_sessions_user_idx').on(t.userId)],
);

export const authAccounts = pgTable(
  'auth_accounts',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => authUsers.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
    refreshTokenExpiresAt: timestamp('refresh_token_expires_at', { withTimezone: true }),
    scope: text('scope'),
    password: text('password'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('auth_accounts_user_idx').on(t.userId)],
);

export const authVerifications = pgTable(
  'auth_verifications',
  {
    id: text('id').primaryKey(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('auth_verifications_identifier_idx').on(t.identifier)],
);

/** The embedded test-mode card processor's payment intents (Stripe keeps its own). */
export const paymentIntents = pgTable(
  'payment_intents',
  {
    id: text('id').primaryKey(),
    clientSecret: text('client_secret').notNull().unique('payment_intents_client_secret_key'),
    orderId: uuid('order_id').notNull(),
    email: text('email').notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull().default('usd'),
    status: text('status', {
      enum: ['requires_payment_method', 'requires_capture', 'succeeded', 'canceled', 'refunded'],
    })
      .notNull()
      .default('requires_payment_method'),
    /** The confirming card's keyed fingerprint (the number is never stored), as Stripe keeps one. */
    cardFingerprint: text('card_fingerprint'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('payment_intents_order_idx').on(t.orderId)],
);

/**
 * What every server on this database must agree on, kept by the first to start: the secrets'
 * fingerprints (never the secrets), so a server started with other secrets refuses to start
 * instead of silently rejecting the others' sessions and tokens (decision 030).
 */
export const serverSettings = pgTable('server_settings', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The rate limits and the sign-in lockout as every server counts them when the database is
 * PostgreSQL and Redis is not configured (src/server/limits): one row per limit and key (a hash,
 * never the e-mail or secret itself) for its current window; rows past `reset_at` mean nothing
 * and are removed now and then, found through the index.
 */
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    key: text('key').primaryKey(),
    count: integer('count').notNull(),
    resetAt: timestamp('reset_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limit_hits_reset_at_idx').on(t.resetAt)],
);

/**
 * The ledger (issue 30, decision 041): every money movement is one transaction of balanced
 * entries, keyed by the step that caused it (`capture:<order>`, `payout:<payout>`...), so a step
 * retried writes nothing twice. Rows are never updated or deleted (triggers refuse it); every
 * balance is a sum of entries. Accounts are names (src/server/ledger/accounts.ts).
 */
export const ledgerTransactions = pgTable(
  'ledger_transactions',
  {
    key: text('key').primaryKey(),
    seq: seq(),
    kind: text('kind', { enum: LEDGER_KINDS }).notNull(),
    orderId: uuid('order_id'),
    payoutId: uuid('payout_id'),
    sellerId: uuid('seller_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('ledger_transactions_order_idx').on(t.orderId),
    index('ledger_transactions_payout_idx').on(t.payoutId),
    index('ledger_transactions_kind_day_idx').on(t.kind, t.createdAt),
  ],
);

export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    seq: seq().primaryKey(),
    transactionKey: text('transaction_key')
      .notNull()
      .references(() => ledgerTransactions.key),
    account: text('account').notNull(),
    /** Signed: what the account gained (positive) or gave (negative); a transaction sums to 0. */
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    /** The sale the movement is for, when it is for one (a copy of the transaction's). */
    orderId: uuid('order_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('ledger_entries_account_idx').on(t.account, t.seq),
    index('ledger_entries_order_idx').on(t.orderId),
    index('ledger_entries_transaction_idx').on(t.transactionKey),
    check('ledger_entries_amount_check', sql`${t.amountCents} <> 0`),
  ],
);

/** Where a seller's payouts go: the embedded test bank's account, or a Stripe Connect account. */
export const payoutAccounts = pgTable(
  'payout_accounts',
  {
    sellerId: uuid('seller_id').primaryKey(),
    kind: text('kind', { enum: ['bank', 'stripe'] }).notNull(),
    /** The processor's id for it (`ba_...` in the test bank, `acct_...` at Stripe). */
    externalId: text('external_id').notNull(),
    label: text('label').notNull(),
    status: text('status', { enum: ['active', 'pending', 'restricted'] }).notNull(),
    payoutsHeldUntil: timestamp('payouts_held_until', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('payout_accounts_external_key').on(t.externalId)],
);

/**
 * The embedded processor's test bank accounts (no money moves): Stripe's documented test routing
 * and account numbers decide whether a payout to one succeeds or fails, and why. The number is
 * not kept: only its last four digits and what the bank will answer.
 */
export const testBankAccounts = pgTable('test_bank_accounts', {
  id: text('id').primaryKey(),
  routingNumber: text('routing_number').notNull(),
  last4: text('last4').notNull(),
  /** null: payouts arrive; else the failure code the bank answers (`account_closed`...). */
  failure: text('failure'),
  createdAt: createdAt(),
});

/**
 * The payouts the test bank made, one per key (the payout's): what "one transfer" means for the
 * embedded processor, so the crash test and the ledger check can count them.
 */
export const testBankPayouts = pgTable('test_bank_payouts', {
  key: text('key').primaryKey(),
  id: text('id').notNull(),
  accountId: text('account_id').notNull(),
  amountCents: integer('amount_cents').notNull(),
  createdAt: createdAt(),
});

/** A payout of a seller's available balance: sending until the processor answers, then paid or failed. */
export const payouts = pgTable(
  'payouts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    seq: seq(),
    sellerId: uuid('seller_id').notNull(),
    amountCents: integer('amount_cents').notNull(),
    status: text('status', { enum: PAYOUT_STATUSES }).notNull().default('sending'),
    /** The payout account's processor id at the time. */
    destination: text('destination').notNull(),
    /** The processor's id of the money sent (a test bank payout id, Stripe transfer ids). */
    providerRef: text('provider_ref'),
    failureReason: text('failure_reason'),
    createdAt: createdAt(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (t) => [
    index('payouts_seller_seq_idx').on(t.sellerId, t.seq.desc()),
    index('payouts_sending_idx').on(t.seq).where(sql`${t.status} = 'sending'`),
    check('payouts_amount_check', sql`${t.amountCents} > 0`),
  ],
);

/** The sales a payout paid: each sale's net, and the Stripe transfer that carried it. */
export const payoutSales = pgTable(
  'payout_sales',
  {
    payoutId: uuid('payout_id')
      .notNull()
      .references(() => payouts.id),
    orderId: uuid('order_id').notNull(),
    netCents: integer('net_cents').notNull(),
    transferId: text('transfer_id'),
  },
  (t) => [
    primaryKey({ columns: [t.payoutId, t.orderId] }),
    index('payout_sales_order_idx').on(t.orderId),
  ],
);

/**
 * A buyer's saved search (issue 33, decision 049): the search's own query string, kept as the
 * search page reads it, and what the reverse matcher needs of it made once at saving (the words
 * as the catalog's are made, the location folded as ILIKE folds it). Goes with its account.
 */
export const savedSearches = pgTable(
  'saved_searches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    seq: seq(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The search's query string, normalised (`q=iphone+14&storage=128+GB&maxPrice=500`). */
    search: text('search').notNull(),
    /** The words as the catalog's are made (`to_tsvector('simple', q)`); empty for none. */
    words: text('words').array().notNull(),
    /** The location filter as the database's `lower()` folds it; null for none. */
    locationLower: text('location_lower'),
    frequency: text('frequency', { enum: ['instant', 'daily'] }).notNull(),
    paused: boolean('paused').notNull().default(false),
    /** When its owner last opened it: phones alerted since are "new". */
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [
    index('saved_searches_user_seq_idx').on(t.userId, t.seq.desc()),
    check('saved_searches_frequency_check', sql`${t.frequency} in ('instant', 'daily')`),
  ],
);

/**
 * Every change of a saved search, in commit order for whoever reads it under the table's
 * exclusive advisory lock: the servers' reverse matchers read what changed since they last read.
 */
export const savedSearchChanges = pgTable('saved_search_changes', {
  seq: bigint('seq', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  searchId: uuid('search_id').notNull(),
  createdAt: createdAt(),
});

/**
 * Phones to match against the saved searches: written by the products' trigger in the
 * transaction that lists, relists or drops the price of a phone, and taken (once, whichever
 * server takes it) by the alert work.
 */
export const listingAlertQueue = pgTable('listing_alert_queue', {
  seq: bigint('seq', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  productId: uuid('product_id').notNull(),
  reason: text('reason', { enum: ['listed', 'relisted', 'price-drop'] }).notNull(),
  /** Rounds whose telling of this phone failed; at MAX_ATTEMPTS it is dropped, logged. */
  attempts: integer('attempts').notNull().default(0),
  createdAt: createdAt(),
});

/**
 * A phone a person was told of, once per phone (whichever of their saved searches matched it
 * first; `search_ids` all of them), at its price then. A later price drop tells once more, at
 * most once a day. A daily search's phones wait for the digest (`digested_at` null).
 */
export const savedSearchAlerts = pgTable(
  'saved_search_alerts',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    searchIds: uuid('search_ids').array().notNull(),
    priceCents: integer('price_cents').notNull(),
    alertedAt: timestamp('alerted_at', { withTimezone: true }).notNull().defaultNow(),
    dropAlertedAt: timestamp('drop_alerted_at', { withTimezone: true }),
    /** Told in a daily digest rather than at once. */
    daily: boolean('daily').notNull(),
    digestedAt: timestamp('digested_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.productId] }),
    index('saved_search_alerts_digest_idx')
      .on(t.userId, t.alertedAt)
      .where(sql`${t.daily} and ${t.digestedAt} is null`),
    index('saved_search_alerts_product_idx').on(t.productId),
  ],
);

/** When each person's last digest of saved-search phones went out (one a day at most). */
export const savedSearchDigests = pgTable('saved_search_digests', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
});

/**
 * A person's report of a listing or a seller (issue 34): one per person and listing, one per
 * person and seller (a listing's report names its seller too). Open until the admin decides it;
 * the reporter is told then.
 */
export const reports = pgTable(
  'reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    seq: bigint('seq', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    reporterId: uuid('reporter_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The listing reported; null for a report of the seller alone (or a listing deleted since). */
    productId: uuid('product_id').references(() => products.id, { onDelete: 'set null' }),
    /** The seller reported, or the listing's seller. */
    sellerId: uuid('seller_id').references(() => users.id, { onDelete: 'set null' }),
    /** What was reported, as it was named then (it may be deleted since). */
    subjectName: text('subject_name').notNull(),
    kind: text('kind', { enum: ['listing', 'seller'] }).notNull(),
    reason: text('reason', { enum: REPORT_REASONS }).notNull(),
    note: text('note').notNull().default(''),
    status: text('status', { enum: REPORT_STATUSES }).notNull().default('open'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('reports_listing_once_idx')
      .on(t.reporterId, t.productId)
      .where(sql`${t.kind} = 'listing'`),
    uniqueIndex('reports_seller_once_idx')
      .on(t.reporterId, t.sellerId)
      .where(sql`${t.kind} = 'seller'`),
    index('reports_product_idx').on(t.productId),
    index('reports_seller_idx').on(t.sellerId),
    index('reports_reporter_idx').on(t.reporterId, t.seq.desc()),
    index('reports_open_idx').on(t.seq).where(sql`${t.status} = 'open'`),
  ],
);

/**
 * Each risk rule that fired on a listing, an account or a message (issue 34), with its weight
 * then and what it saw (`detail`: the guide's price, the photo it matched…). One row a rule and
 * subject, its weight and detail refreshed when it fires again; `cleared_at` once the admin
 * cleared its subject with it, so the same signal does not hold the listing again.
 */
export const riskSignals = pgTable(
  'risk_signals',
  {
    seq: bigint('seq', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    subjectKind: text('subject_kind', { enum: RISK_SUBJECTS }).notNull(),
    subjectId: uuid('subject_id').notNull(),
    rule: text('rule').notNull(),
    weight: integer('weight').notNull(),
    detail: jsonb('detail').notNull().default({}),
    clearedAt: timestamp('cleared_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('risk_signals_subject_rule_idx').on(t.subjectKind, t.subjectId, t.rule),
    index('risk_signals_subject_idx').on(t.subjectId),
  ],
);

/** What the admin decided in the review queue (issue 34): every action, who and when. */
export const reviewActions = pgTable(
  'review_actions',
  {
    seq: bigint('seq', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    adminId: uuid('admin_id').references(() => users.id, { onDelete: 'set null' }),
    /** The admin's name then: the record outlives the account. */
    adminName: text('admin_name').notNull(),
    target: text('target', { enum: REVIEW_TARGETS }).notNull(),
    subjectId: uuid('subject_id').notNull(),
    /** What the action was taken on, as it was named then. */
    subject: text('subject').notNull(),
    action: text('action', { enum: REVIEW_ACTIONS }).notNull(),
    note: text('note').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    index('review_actions_seq_idx').on(t.seq.desc()),
    index('review_actions_subject_idx').on(t.subjectId),
  ],
);

/**
 * What ties a banned account to the next one its person opens (issue 34): the banned account's
 * client addresses, cards and devices, as the same keyed fingerprints the trust signals keep
 * (decision 038). An account seen with one of them is a risk signal, not a ban.
 */
export const bannedMarks = pgTable(
  'banned_marks',
  {
    kind: text('kind', { enum: ['address', 'card', 'device'] }).notNull(),
    hash: text('hash').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ name: 'banned_marks_pkey', columns: [t.kind, t.hash] })],
);

/**
 * Every stored photo's perceptual hashes (issue 34, decision 054), by its URL, so a photo already
 * on another seller's listing is found though it was downloaded and uploaded again
 * (risk/photo-match.ts). `hash` is cut into three bands (22, 21 and 21 bits), each indexed: two
 * hashes at most 8 bits apart agree within 2 bits on one band at least, so a lookup probes each
 * band's values within 2 bits and checks the few rows it finds (multi-index hashing).
 */
export const photoHashes = pgTable(
  'photo_hashes',
  {
    url: text('url').primaryKey(),
    /** The 64-bit hash, its bits as a signed bigint's. */
    hash: bigint('hash', { mode: 'bigint' }).notNull(),
    /** The 256-bit hash that confirms a candidate. */
    detail: bit('detail', { dimensions: 256 }).notNull(),
    band0: integer('band0').notNull().generatedAlwaysAs(sql`((hash >> 42) & 4194303)::integer`),
    band1: integer('band1').notNull().generatedAlwaysAs(sql`((hash >> 21) & 2097151)::integer`),
    band2: integer('band2').notNull().generatedAlwaysAs(sql`(hash & 2097151)::integer`),
    createdAt: createdAt(),
  },
  (t) => [
    index('photo_hashes_band0_idx').on(t.band0),
    index('photo_hashes_band1_idx').on(t.band1),
    index('photo_hashes_band2_idx').on(t.band2),
  ],
);

/**
 * Who looked at a phone's page, one row per person, phone and day (issue 35, decision 055): a
 * keyed fingerprint of the account, or of a visitor's client address and browser on that day;
 * never an address or an account id. Written in batches by the view counter (views/counter.ts),
 * a row already there left alone, so several servers write it safely.
 */
export const productViews = pgTable(
  'product_views',
  {
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    viewer: text('viewer').notNull(),
  },
  (t) => [primaryKey({ columns: [t.productId, t.day, t.viewer] })],
);

/**
 * A seller's bulk upload (issue 35, decision 057): a CSV of phones and a ZIP of their photos,
 * read in the background (`photos`), waiting for the seller (`preview`), listed row by row in the
 * background (`listing`), then `done`; or `refused` as a whole (`message` says why), or
 * `expired` (its preview waited too long). `lease_until` is the lease of the server working on it.
 */
export const bulkUploads = pgTable(
  'bulk_uploads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sellerId: uuid('seller_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: BULK_STATUSES }).notNull(),
    message: text('message'),
    rowsTotal: integer('rows_total').notNull(),
    /** Progress: photos read while `photos`, rows tried while `listing`. */
    rowsDone: integer('rows_done').notNull().default(0),
    /** How many photos the ZIP is read for (the progress bar's whole while `photos`). */
    photosTotal: integer('photos_total').notNull().default(0),
    photosDone: integer('photos_done').notNull().default(0),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('bulk_uploads_seller_created').on(t.sellerId, t.createdAt.desc()),
    index('bulk_uploads_due').on(t.leaseUntil).where(sql`${t.status} in ('photos', 'listing')`),
  ],
);

/**
 * A row of a bulk upload: its report (the problems the page shows beside it), and while it waits
 * to be listed, the body Add A Product would send (`input`, its IMEI apart and sealed with the
 * IMEI vault, decision 024); once tried, its outcome, written in the transaction that listed it.
 */
export const bulkUploadRows = pgTable(
  'bulk_upload_rows',
  {
    uploadId: uuid('upload_id')
      .notNull()
      .references(() => bulkUploads.id, { onDelete: 'cascade' }),
    row: integer('row').notNull(),
    model: text('model').notNull(),
    problems: jsonb('problems').$type<BulkProblem[]>().notNull(),
    input: jsonb('input').$type<Record<string, unknown>>(),
    sealedImei: text('sealed_imei'),
    /** Null until tried; then listed (with its phone) or not (with the reason, in the form's words). */
    listed: boolean('listed'),
    outcomeMessage: text('outcome_message'),
    productId: uuid('product_id').references(() => products.id, { onDelete: 'set null' }),
  },
  (t) => [primaryKey({ columns: [t.uploadId, t.row] })],
);
