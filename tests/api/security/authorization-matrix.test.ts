/**
 * Who may do what, for every route and every kind of caller. Each row names a rule of the table
 * in ARCHITECTURE.md ('Who may do what'); the expected status of every cell follows from the
 * rule, with the table's own exceptions written in the row. A refused call changes nothing.
 * A route the server registers without a row here fails the coverage test.
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { decodeJwt } from 'jose';
import sharp from 'sharp';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessTokens } from '../../../src/server/auth/access-tokens';
import { bulkTemplateCsv } from '../../../src/server/bulk/template';
import {
  bulkUploadRows,
  bulkUploads,
  conversations,
  messages,
  orders,
  savedSearches,
  users,
  wishListItems,
} from '../../../src/server/db/schema';
import { EmbeddedPaymentProvider } from '../../../src/server/payments/embedded-processor';
import { banEmail } from '../../../src/server/repositories/bans';
import { insertBlockedImei } from '../../../src/server/repositories/imeis';
import { unsubscribeKey } from '../../../src/server/repositories/notifications';
import {
  type Account,
  cookieOf,
  createAccount,
  createAdmin,
  expiredTokenLike,
  GOOD_PASSWORD,
  SAME_SITE,
  signIn,
  uniqueEmail,
} from '../../helpers/accounts';
import { createProduct, createSeller, orderValues, uniqueImei } from '../../helpers/factories';
import { fingerprint } from '../../helpers/fingerprint';
import { bulkFilesBody, multipartFile, uploadPhoto } from '../../helpers/multipart';
import { expectNoContact, pageState } from '../../helpers/never-public';
import { startStripeDouble } from '../../helpers/stripe-double';
import { buildTestApp, type TestApp } from '../../helpers/test-app';
import { zipOf } from '../../helpers/zip-files';

/** A conversation of the buyer's about one of the seller's phones, with the buyer's question. */
async function freshConversation(): Promise<{ conversationId: string; messageId: string }> {
  const product = await freshPhone();
  const [conversation] = await t.database.db
    .insert(conversations)
    .values({
      productId: product.id,
      productName: product.modelName,
      buyerId: who.buyer.id,
      sellerId: who.seller.id,
    })
    .returning({ id: conversations.id });
  const [message] = await t.database.db
    .insert(messages)
    .values({ conversationId: conversation?.id as string, senderId: who.buyer.id, body: 'Hello?' })
    .returning({ id: messages.id });
  return { conversationId: conversation?.id as string, messageId: message?.id as string };
}

/**
 * A bulk upload of the seller's waiting for the go-ahead (issue 35), with one row ready: made in
 * the database, as reading its files is the bulk tests' own subject.
 */
async function freshBulkUpload(): Promise<string> {
  const [upload] = await t.database.db
    .insert(bulkUploads)
    .values({ sellerId: who.seller.id, status: 'preview', rowsTotal: 1 })
    .returning({ id: bulkUploads.id });
  const { imei, ...input } = productInput();
  await t.database.db.insert(bulkUploadRows).values({
    uploadId: upload?.id as string,
    row: 2,
    model: String(input.modelName),
    problems: [],
    input,
    sealedImei: t.app.imeiVault.keep(String(imei)).sealed,
  });
  return upload?.id as string;
}

/** A saved search of the buyer's (issue 33). */
async function freshSavedSearch(): Promise<string> {
  const [row] = await t.database.db
    .insert(savedSearches)
    .values({
      userId: who.buyer.id,
      name: 'Matrix',
      search: 'q=matrix',
      words: ['matrix'],
      frequency: 'instant',
    })
    .returning({ id: savedSearches.id });
  return row?.id as string;
}

const CALLERS = [
  'anonymous',
  'buyer',
  'otherBuyer',
  'seller',
  'otherSeller',
  'admin',
  'expiredToken',
  'forgedToken',
  'deletedAccount',
] as const;
type CallerName = (typeof CALLERS)[number];

/**
 * The rules of ARCHITECTURE.md's table. `buyer` and `seller` are the owners of what a row's
 * request touches; the admin account is a buyer account (type 'user') whose e-mail is an admin's.
 */
const ALLOWED = {
  anyone: CALLERS,
  /** `POST /users`, `GET /jwt`: the signed-in identity (session cookie) of that e-mail. */
  identitySelf: ['buyer'],
  admin: ['admin'],
  anySeller: ['seller', 'otherSeller'],
  /** The seller who owns the product. */
  ownerSeller: ['seller'],
  anyBuyer: ['buyer', 'otherBuyer', 'admin'],
  /** The buyer who owns the wish-list item or order. */
  ownerBuyer: ['buyer'],
  /** Any account with a valid token. */
  anyAccount: ['buyer', 'otherBuyer', 'seller', 'otherSeller', 'admin'],
  /** The buyer and the seller of the sale. */
  saleSides: ['buyer', 'seller'],
  /** The buyer and the seller of the sale, and an admin. */
  saleSidesAndAdmin: ['buyer', 'seller', 'admin'],
  /** The operator's scraper, with METRICS_TOKEN: none of these callers, an admin neither. */
  metricsScraper: [],
} as const satisfies Record<string, readonly CallerName[]>;
type Rule = keyof typeof ALLOWED;

const SIGNED_OUT: readonly CallerName[] = [
  'anonymous',
  'expiredToken',
  'forgedToken',
  'deletedAccount',
];

type Request = Omit<InjectOptions, 'headers'> & { headers?: Record<string, string> };
type Row = {
  /** The routes (`METHOD /path` as registered) this row covers. */
  routes: string[];
  rule: Rule;
  /** The status of an allowed call. */
  ok: number;
  /** Cells where the table says otherwise than the rule (with the reason in a comment). */
  except?: Partial<Record<CallerName, number>>;
  /** A fresh request for one cell: what it touches is made anew for every caller. */
  request: () => Promise<Request>;
  /** The API's own reference: it names the contact fields, and holds nobody's. */
  describesTheApi?: boolean;
  /** The identity the caller just proved (signed up or in with): theirs to see, nobody else's. */
  answersTheCaller?: boolean;
};

/**
 * What a public answer must never carry (issue 29): the contact fields of
 * tests/helpers/never-public.ts, and any caller's address or the number the factories list with.
 */
function expectNothingToReachAnyone(what: string, res: LightMyRequestResponse) {
  const contacts = {
    emails: Object.values(who).map((account) => account.email),
    numbers: ['+1 512 555 0100'],
  };
  const type = String(res.headers['content-type'] ?? '');
  const json = type.includes('json')
    ? res.json()
    : type.includes('html')
      ? pageState(res.body)
      : null;
  expectNoContact(what, res.body, contacts, json ?? undefined);
}

function expectedStatus(row: Row, caller: CallerName): number {
  const exception = row.except?.[caller];
  if (exception !== undefined) return exception;
  if ((ALLOWED[row.rule] as readonly CallerName[]).includes(caller)) return row.ok;
  return SIGNED_OUT.includes(caller) ? 401 : 403;
}

let t: TestApp;
let stripeApp: TestApp;
let stripe: Awaited<ReturnType<typeof startStripeDouble>>;
const who = {} as Record<Exclude<CallerName, 'anonymous'>, Account>;
const credentials = {} as Record<CallerName, Record<string, string>>;
let photo: Buffer;
let storedImage: string;
const ADMIN_EMAIL = uniqueEmail('admin');
const STRIPE_KEYS = {
  STRIPE_SECRET_KEY: 'sk_test_matrix',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_matrix',
  STRIPE_WEBHOOK_SECRET: 'whsec_matrix',
};

const sellerRow = async () =>
  (
    await t.database.db.select().from(users).where(eq(users.email, who.seller.email))
  )[0] as typeof users.$inferSelect;
const freshPhone = async () => createProduct(t.database.db, await sellerRow());
/** A listing's IMEI columns, as listing it with `imei` keeps them. */
const imeiOf = (imei: string) => {
  const kept = t.app.imeiVault.keep(imei);
  return { imeiHash: kept.hash, imeiLast4: kept.last4, imeiSealed: kept.sealed };
};
const freshOrder = async () => {
  const phone = await freshPhone();
  const [order] = await t.database.db
    .insert(orders)
    .values(orderValues(who.buyer, phone.id, { priceCents: phone.resellPriceCents, image: '' }))
    .returning();
  return order as typeof orders.$inferSelect;
};
/** An order of the buyer's for the seller's phone, paid (the card authorised) through the API. */
const paidOrder = async () => {
  const phone = await freshPhone();
  const [order] = await t.database.db
    .insert(orders)
    .values(
      orderValues(who.buyer, phone.id, {
        priceCents: phone.resellPriceCents,
        image: '',
        sellerId: (await sellerRow()).id,
        sellerEmail: who.seller.email,
        sellerName: phone.sellerName,
        sellerNumber: phone.sellerNumber,
      }),
    )
    .returning();
  // Straight from the processor: the intent route's own limit counts the buyer's calls per minute.
  const { clientSecret: secret } = await new EmbeddedPaymentProvider(t.database.db).createIntent({
    orderId: order?.id as string,
    amountCents: phone.resellPriceCents,
    email: who.buyer.email,
  });
  const confirmed = await t.app.inject({
    method: 'POST',
    url: '/api/test-payments/confirm',
    payload: confirmBody(secret),
  });
  expect(confirmed.statusCode).toBe(200);
  return (
    await t.database.db
      .select()
      .from(orders)
      .where(eq(orders.id, order?.id as string))
  )[0] as typeof orders.$inferSelect;
};
/** A paid sale the seller completed with the buyer's code. */
const completedOrder = async () => {
  const order = await paidOrder();
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/orders/${order.id}/handover`,
    headers: who.seller.bearer,
    payload: { code: order.handoverCode },
  });
  expect(res.statusCode).toBe(200);
  return order;
};
const disputedOrder = async () => {
  const order = await completedOrder();
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/orders/${order.id}/report`,
    headers: who.buyer.bearer,
    payload: { reason: 'Not as described' },
  });
  expect(res.statusCode).toBe(200);
  return order;
};
const intentOf = async (orderId: string, priceCents: number) => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/create-payment-intent',
    headers: who.buyer.bearer,
    payload: { orderId, price: priceCents / 100 },
  });
  expect(res.statusCode).toBe(200);
  return res.json().clientSecret as string;
};
const confirmBody = (clientSecret: string) => ({
  clientSecret,
  card: { number: '4242424242424242', expMonth: 12, expYear: 2040, cvc: '123' },
  billingDetails: { name: 'Test Buyer', email: who.buyer.email },
});
const productInput = () => ({
  categoryId: '02',
  modelName: 'Matrix Phone',
  image: storedImage,
  originalPrice: 500,
  resellPrice: 250,
  location: 'Austin, TX',
  description: 'Like new.',
  timeUsed: 3,
  condition: 'Good',
  sellerNumber: '+1 512 555 0100',
  specificatons: { ram: '8 GB', storage: '128 GB', color: 'Black', battery: 4000 },
  imei: uniqueImei(),
});

const get = (url: string) => async (): Promise<Request> => ({ method: 'GET', url });
const docs = (path: string, ok = 200): Row => ({
  routes: [`GET ${path}`],
  rule: 'anyone',
  ok,
  request: get(path),
  describesTheApi: true,
});

const rows: Record<string, Row> = {
  'list categories': {
    routes: ['GET /api/category'],
    rule: 'anyone',
    ok: 200,
    request: get('/api/category'),
  },
  'products of a category': {
    routes: ['GET /api/category/:id'],
    rule: 'anyone',
    ok: 200,
    request: get('/api/category/01'),
  },
  'search phones': {
    routes: ['GET /api/search'],
    rule: 'anyone',
    ok: 200,
    request: get('/api/search?q=phone&sort=price-asc'),
  },
  'advertised phones': {
    routes: ['GET /api/advertise'],
    rule: 'anyone',
    ok: 200,
    request: get('/api/advertise'),
  },
  "a phone's page": {
    routes: ['GET /api/products/:id'],
    rule: 'anyone',
    ok: 200,
    request: async () => ({ method: 'GET', url: `/api/products/${(await freshPhone()).id}` }),
  },
  'phones like a phone': {
    routes: ['GET /api/products/:id/similar'],
    rule: 'anyone',
    ok: 200,
    request: async () => ({
      method: 'GET',
      url: `/api/products/${(await freshPhone()).id}/similar`,
    }),
  },
  "a seller's page": {
    routes: ['GET /api/sellers/:id'],
    rule: 'anyone',
    ok: 200,
    request: async () => ({ method: 'GET', url: `/api/sellers/${(await sellerRow()).id}` }),
  },
  "a seller's phones for sale": {
    routes: ['GET /api/sellers/:id/products'],
    rule: 'anyone',
    ok: 200,
    request: async () => {
      await freshPhone();
      return { method: 'GET', url: `/api/sellers/${(await sellerRow()).id}/products` };
    },
  },
  // Outside the API, for search engines: public by nature, listed to say so.
  'robots.txt': {
    routes: ['GET /robots.txt'],
    rule: 'anyone',
    ok: 200,
    request: get('/robots.txt'),
  },
  'sitemap index': {
    routes: ['GET /sitemap.xml'],
    rule: 'anyone',
    ok: 200,
    request: get('/sitemap.xml'),
  },
  'sitemap of the public pages': {
    routes: ['GET /sitemaps/pages.xml'],
    rule: 'anyone',
    ok: 200,
    request: get('/sitemaps/pages.xml'),
  },
  'sitemap of phones': {
    routes: ['GET /sitemaps/:file'],
    rule: 'anyone',
    ok: 200,
    request: async () => {
      await freshPhone();
      return { method: 'GET', url: '/sitemaps/products-1.xml' };
    },
  },
  'is admin?': {
    routes: ['GET /api/users/admin/:email'],
    rule: 'anyone',
    ok: 200,
    request: async () => ({ method: 'GET', url: `/api/users/admin/${who.admin.email}` }),
  },
  'is seller?': {
    routes: ['GET /api/users/seller/:email'],
    rule: 'anyone',
    ok: 200,
    request: async () => ({ method: 'GET', url: `/api/users/seller/${who.seller.email}` }),
  },
  'all buyers': {
    routes: ['GET /api/users/buyer'],
    rule: 'admin',
    ok: 200,
    request: get('/api/users/buyer'),
  },
  'all sellers': {
    routes: ['GET /api/users/seller'],
    rule: 'admin',
    ok: 200,
    request: get('/api/users/seller'),
  },
  'delete an account': {
    routes: ['DELETE /api/users'],
    rule: 'admin',
    ok: 200,
    request: async () => ({
      method: 'DELETE',
      url: `/api/users?id=${(await createSeller(t.database.db)).id}`,
    }),
  },
  'verify a seller': {
    routes: ['PUT /api/users/:email'],
    rule: 'admin',
    ok: 200,
    request: async () => ({
      method: 'PUT',
      url: `/api/users/${(await createSeller(t.database.db)).email}`,
    }),
  },
  'un-verify a seller': {
    routes: ['DELETE /api/users/:email/verified'],
    rule: 'admin',
    ok: 200,
    request: async () => ({
      method: 'DELETE',
      url: `/api/users/${(await createSeller(t.database.db, { userStatus: 'verified' })).email}/verified`,
    }),
  },
  'banned addresses': {
    routes: ['GET /api/users/banned'],
    rule: 'admin',
    ok: 200,
    request: get('/api/users/banned'),
  },
  'ban an address': {
    routes: ['POST /api/users/banned'],
    rule: 'admin',
    ok: 200,
    request: async () => ({
      method: 'POST',
      url: '/api/users/banned',
      payload: { email: (await createSeller(t.database.db)).email },
    }),
  },
  'lift a ban': {
    routes: ['DELETE /api/users/banned'],
    rule: 'admin',
    ok: 200,
    request: async () => {
      const email = uniqueEmail('banned');
      await banEmail(t.database.db, email, 'banned');
      return { method: 'DELETE', url: `/api/users/banned?email=${email}` };
    },
  },
  'blocked IMEIs': {
    routes: ['GET /api/imeis/blocked'],
    rule: 'admin',
    ok: 200,
    request: get('/api/imeis/blocked'),
  },
  'block an IMEI': {
    routes: ['POST /api/imeis/blocked'],
    rule: 'admin',
    ok: 200,
    request: async () => ({
      method: 'POST',
      url: '/api/imeis/blocked',
      payload: { imei: uniqueImei(), reason: 'Reported stolen' },
    }),
  },
  'unblock an IMEI': {
    routes: ['DELETE /api/imeis/blocked/:id'],
    rule: 'admin',
    ok: 200,
    request: async () => {
      const imei = uniqueImei();
      const id = await insertBlockedImei(t.database.db, {
        hash: t.app.imeiVault.hash(imei),
        last4: imei.slice(-4),
        reason: 'Reported stolen',
        blockedBy: who.admin.id,
      });
      return { method: 'DELETE', url: `/api/imeis/blocked/${id}` };
    },
  },
  'save the user record': {
    routes: ['POST /api/users'],
    rule: 'identitySelf',
    ok: 200,
    request: async () => ({
      method: 'POST',
      url: '/api/users',
      payload: { email: who.buyer.email, name: who.buyer.name, type: 'user' },
    }),
  },
  'get an access token': {
    routes: ['GET /api/jwt'],
    rule: 'identitySelf',
    ok: 200,
    request: async () => ({ method: 'GET', url: `/api/jwt?email=${who.buyer.email}` }),
  },
  "a seller's products": {
    routes: ['GET /api/products'],
    rule: 'ownerSeller',
    ok: 200,
    request: async () => ({ method: 'GET', url: `/api/products?email=${who.seller.email}` }),
  },
  // Notifications and mail settings (issue 20): each account its own, found by its token alone.
  // The live stream itself is tested over real HTTP (tests/api/live.test.ts); injected without
  // `Accept: text/event-stream`, a caller let through gets 406 instead of a stream never ending.
  // Conversations (issue 20): the buyer and the seller of one, each message reported by its
  // receiver; the admin reads the reported ones.
  conversations: {
    routes: ['GET /api/conversations'],
    rule: 'anyAccount',
    ok: 200,
    request: get('/api/conversations'),
  },
  'ask a seller': {
    routes: ['POST /api/conversations'],
    rule: 'anyBuyer',
    ok: 200,
    request: async () => ({
      method: 'POST',
      url: '/api/conversations',
      payload: { productId: (await freshPhone()).id, body: 'Is it unlocked?' },
    }),
  },
  'read a conversation': {
    routes: ['GET /api/conversations/:id'],
    rule: 'saleSides',
    ok: 200,
    // A conversation one is not in is not shown to exist: 404, not 403.
    except: { otherBuyer: 404, otherSeller: 404, admin: 404 },
    request: async () => ({
      method: 'GET',
      url: `/api/conversations/${(await freshConversation()).conversationId}`,
    }),
  },
  'write in a conversation': {
    routes: ['POST /api/conversations/:id/messages'],
    rule: 'saleSides',
    ok: 200,
    // A conversation one is not in is not shown to exist: 404, not 403.
    except: { otherBuyer: 404, otherSeller: 404, admin: 404 },
    request: async () => ({
      method: 'POST',
      url: `/api/conversations/${(await freshConversation()).conversationId}/messages`,
      payload: { body: 'Can we meet at 6?' },
    }),
  },
  'report a message': {
    routes: ['POST /api/messages/:id/report'],
    rule: 'ownerSeller',
    ok: 200,
    // The receiver reports; its sender may not (403); others do not see it exists (404).
    except: { otherBuyer: 404, otherSeller: 404, admin: 404 },
    request: async () => ({
      method: 'POST',
      url: `/api/messages/${(await freshConversation()).messageId}/report`,
      payload: { reason: 'Rude' },
    }),
  },
  'reported messages': {
    routes: ['GET /api/messages/reported'],
    rule: 'admin',
    ok: 200,
    request: get('/api/messages/reported'),
  },
  'live events': {
    routes: ['GET /api/events'],
    rule: 'anyAccount',
    ok: 406,
    request: get('/api/events'),
  },
  notifications: {
    routes: ['GET /api/notifications'],
    rule: 'anyAccount',
    ok: 200,
    request: get('/api/notifications'),
  },
  'unread notifications': {
    routes: ['GET /api/notifications/unread'],
    rule: 'anyAccount',
    ok: 200,
    request: get('/api/notifications/unread'),
  },
  'read notifications': {
    routes: ['POST /api/notifications/read'],
    rule: 'anyAccount',
    ok: 200,
    request: async () => ({ method: 'POST', url: '/api/notifications/read', payload: {} }),
  },
  'mail settings': {
    routes: ['GET /api/mail-settings'],
    rule: 'anyAccount',
    ok: 200,
    request: get('/api/mail-settings'),
  },
  'save mail settings': {
    routes: ['PUT /api/mail-settings'],
    rule: 'anyAccount',
    ok: 200,
    request: async () => ({ method: 'PUT', url: '/api/mail-settings', payload: { off: [] } }),
  },
  // A mail's unsubscribe link: the account's mail key is the proof, whoever follows it.
  'unsubscribe by a mail link': {
    routes: ['POST /api/mail-settings/unsubscribe'],
    rule: 'anyone',
    ok: 200,
    request: async () => {
      const [buyer] = await t.database.db
        .select({ id: users.id, key: users.mailKey })
        .from(users)
        .where(eq(users.email, who.buyer.email));
      return {
        method: 'POST',
        // The account's key for that kind is the proof (decision 037).
        url: `/api/mail-settings/unsubscribe?u=${buyer?.id}&kind=message&key=${unsubscribeKey(buyer?.key ?? '', 'message')}`,
      };
    },
  },
  'the price guide': {
    routes: ['GET /api/price-guide'],
    rule: 'anySeller',
    ok: 200,
    request: get('/api/price-guide?modelName=Pixel%208&storage=128%20GB&condition=Good'),
  },
  // Public: a phone's page shows what its model sold for (issue 33, decision 051).
  'the price history': {
    routes: ['GET /api/price-guide/history'],
    rule: 'anyone',
    ok: 200,
    request: get('/api/price-guide/history?modelName=Pixel%208&storage=128%20GB&price=450'),
  },
  // What sells (issue 35, decision 055): the figures are a seller's own, about their own listings
  // only. Views are counted where the phone's page and data are served, by no call of their own.
  'what sells': {
    routes: ['GET /api/what-sells'],
    rule: 'anySeller',
    ok: 200,
    request: get('/api/what-sells'),
  },
  // Bulk listing (issue 35, decision 057): a seller's own uploads. Another seller's upload is a
  // 404 (not theirs to know of), as a buyer's or the admin's 403 says they sell nothing.
  'the bulk listing template': {
    routes: ['GET /api/bulk-uploads/template.csv'],
    rule: 'anySeller',
    ok: 200,
    request: get('/api/bulk-uploads/template.csv'),
  },
  'bulk uploads': {
    routes: ['GET /api/bulk-uploads'],
    rule: 'anySeller',
    ok: 200,
    request: get('/api/bulk-uploads'),
  },
  'start a bulk upload': {
    routes: ['POST /api/bulk-uploads'],
    rule: 'anySeller',
    ok: 202,
    request: async () => ({
      method: 'POST',
      url: '/api/bulk-uploads',
      ...bulkFilesBody(Buffer.from(bulkTemplateCsv()), zipOf([{ name: 'front.jpg', data: photo }])),
    }),
  },
  'a bulk upload': {
    routes: ['GET /api/bulk-uploads/:id'],
    rule: 'ownerSeller',
    ok: 200,
    except: { otherSeller: 404 },
    request: async () => get(`/api/bulk-uploads/${await freshBulkUpload()}`)(),
  },
  'list a bulk upload': {
    routes: ['POST /api/bulk-uploads/:id/listing'],
    rule: 'ownerSeller',
    ok: 202,
    except: { otherSeller: 404 },
    request: async () => ({
      method: 'POST',
      url: `/api/bulk-uploads/${await freshBulkUpload()}/listing`,
    }),
  },
  'add a product': {
    routes: ['POST /api/products'],
    rule: 'anySeller',
    ok: 200,
    request: async () => ({ method: 'POST', url: '/api/products', payload: productInput() }),
  },
  'delete a product': {
    routes: ['DELETE /api/products'],
    rule: 'ownerSeller',
    ok: 200,
    // The table: 'the seller who owns the product (admin may delete)'.
    except: { admin: 200 },
    request: async () => ({ method: 'DELETE', url: `/api/products?id=${(await freshPhone()).id}` }),
  },
  'advertise a product': {
    routes: ['POST /api/advertise'],
    rule: 'ownerSeller',
    ok: 200,
    request: async () => ({ method: 'POST', url: `/api/advertise?id=${(await freshPhone()).id}` }),
  },
  'stop advertising a product': {
    routes: ['DELETE /api/advertise'],
    rule: 'ownerSeller',
    ok: 200,
    request: async () => ({
      method: 'DELETE',
      url: `/api/advertise?id=${(await freshPhone()).id}`,
    }),
  },
  'edit a product': {
    routes: ['PUT /api/products/:id'],
    rule: 'ownerSeller',
    ok: 200,
    request: async () => {
      const { image: _cover, ...edit } = productInput();
      return { method: 'PUT', url: `/api/products/${(await freshPhone()).id}`, payload: edit };
    },
  },
  'withdraw a product': {
    routes: ['POST /api/products/:id/withdraw'],
    rule: 'ownerSeller',
    ok: 200,
    // The product graph's `withdraw` is the seller's or an admin's (issue 29).
    except: { admin: 200 },
    request: async () => ({
      method: 'POST',
      url: `/api/products/${(await freshPhone()).id}/withdraw`,
    }),
  },
  'relist a product': {
    routes: ['POST /api/products/:id/relist'],
    rule: 'ownerSeller',
    ok: 200,
    request: async () => ({
      method: 'POST',
      url: `/api/products/${(await createProduct(t.database.db, await sellerRow(), { status: 'withdrawn', ...imeiOf(uniqueImei()) })).id}/relist`,
    }),
  },
  "set a phone's photos": {
    routes: ['PUT /api/products/:id/photos'],
    rule: 'ownerSeller',
    ok: 200,
    request: async () => ({
      method: 'PUT',
      url: `/api/products/${(await freshPhone()).id}/photos`,
      payload: { photos: [storedImage] },
    }),
  },
  'upload a photo': {
    routes: ['POST /api/images'],
    rule: 'anySeller',
    ok: 200,
    request: async () => ({
      method: 'POST',
      url: '/api/images',
      ...multipartFile('image', 'phone.jpg', photo, 'image/jpeg'),
    }),
  },
  'read a wish list': {
    routes: ['GET /api/wishlist'],
    rule: 'ownerBuyer',
    ok: 200,
    request: async () => ({ method: 'GET', url: `/api/wishlist?email=${who.buyer.email}` }),
  },
  'add to a wish list': {
    routes: ['POST /api/wishlist'],
    rule: 'anyBuyer',
    ok: 200,
    request: async () => ({
      method: 'POST',
      url: '/api/wishlist',
      payload: { productId: (await freshPhone()).id },
    }),
  },
  'remove from a wish list': {
    routes: ['DELETE /api/wishlist/:id'],
    rule: 'ownerBuyer',
    ok: 200,
    request: async () => {
      const [item] = await t.database.db
        .insert(wishListItems)
        .values({ email: who.buyer.email, productId: (await freshPhone()).id })
        .returning();
      return { method: 'DELETE', url: `/api/wishlist/${item?.id}` };
    },
  },
  // Saved searches (issue 33): a buyer's own; another buyer's (and the admin, a buyer account)
  // answers 404, as a missing one does, so ids cannot be probed.
  'list saved searches': {
    routes: ['GET /api/saved-searches'],
    rule: 'anyBuyer',
    ok: 200,
    request: get('/api/saved-searches'),
  },
  'save a search': {
    routes: ['POST /api/saved-searches'],
    rule: 'anyBuyer',
    ok: 200,
    request: async () => ({
      method: 'POST',
      url: '/api/saved-searches',
      payload: { name: 'Matrix', search: 'q=matrix&maxPrice=300', frequency: 'instant' },
    }),
  },
  'edit a saved search': {
    routes: ['PUT /api/saved-searches/:id'],
    rule: 'ownerBuyer',
    ok: 200,
    except: { otherBuyer: 404, admin: 404 },
    request: async () => ({
      method: 'PUT',
      url: `/api/saved-searches/${await freshSavedSearch()}`,
      payload: { paused: true },
    }),
  },
  'delete a saved search': {
    routes: ['DELETE /api/saved-searches/:id'],
    rule: 'ownerBuyer',
    ok: 200,
    except: { otherBuyer: 404, admin: 404 },
    request: async () => ({
      method: 'DELETE',
      url: `/api/saved-searches/${await freshSavedSearch()}`,
    }),
  },
  'open a saved search': {
    routes: ['POST /api/saved-searches/:id/seen'],
    rule: 'ownerBuyer',
    ok: 200,
    except: { otherBuyer: 404, admin: 404 },
    request: async () => ({
      method: 'POST',
      url: `/api/saved-searches/${await freshSavedSearch()}/seen`,
    }),
  },
  'buyers waiting for a phone like this': {
    routes: ['GET /api/saved-searches/waiting'],
    rule: 'anySeller',
    ok: 200,
    request: get(
      '/api/saved-searches/waiting?categoryId=01&modelName=Matrix&ram=8+GB&storage=128+GB&condition=Good&price=250',
    ),
  },
  // Reports (issue 34): any account reports a listing or a seller, never its own (the seller's
  // own phone: 400); each reads only their own reports.
  'report a listing': {
    routes: ['POST /api/products/:id/reports'],
    rule: 'anyAccount',
    ok: 200,
    except: { seller: 400 },
    request: async () => ({
      method: 'POST',
      url: `/api/products/${(await freshPhone()).id}/reports`,
      payload: { reason: 'scam', note: 'Matrix' },
    }),
  },
  'report a seller': {
    routes: ['POST /api/sellers/:id/reports'],
    rule: 'anyAccount',
    ok: 200,
    request: async () => ({
      method: 'POST',
      url: `/api/sellers/${(await createSeller(t.database.db)).id}/reports`,
      payload: { reason: 'other' },
    }),
  },
  'my reports': {
    routes: ['GET /api/reports'],
    rule: 'anyAccount',
    ok: 200,
    request: get('/api/reports'),
  },
  // The review queue (issue 34): the admin's alone; each action makes its own subject.
  'the review queue': {
    routes: ['GET /api/review'],
    rule: 'admin',
    ok: 200,
    request: get('/api/review'),
  },
  'act from the review queue': {
    routes: ['POST /api/review/actions'],
    rule: 'admin',
    ok: 200,
    request: async () => ({
      method: 'POST',
      url: '/api/review/actions',
      payload: { target: 'listing', id: (await freshPhone()).id, action: 'withdraw', note: '' },
    }),
  },
  'the review queue’s decisions': {
    routes: ['GET /api/review/actions'],
    rule: 'admin',
    ok: 200,
    request: get('/api/review/actions'),
  },
  'read orders': {
    routes: ['GET /api/order'],
    rule: 'ownerBuyer',
    ok: 200,
    request: async () => ({ method: 'GET', url: `/api/order?email=${who.buyer.email}` }),
  },
  'book a phone': {
    routes: ['POST /api/order'],
    rule: 'anyBuyer',
    ok: 200,
    request: async () => ({
      method: 'POST',
      url: '/api/order',
      payload: { productId: (await freshPhone()).id, location: 'Cafe', number: '+1 555 0100' },
    }),
  },
  'delete an order': {
    routes: ['DELETE /api/order'],
    rule: 'ownerBuyer',
    ok: 200,
    request: async () => ({ method: 'DELETE', url: `/api/order?id=${(await freshOrder()).id}` }),
  },
  'read an order to pay': {
    routes: ['GET /api/payment/:id'],
    rule: 'ownerBuyer',
    ok: 200,
    request: async () => ({ method: 'GET', url: `/api/payment/${(await freshOrder()).id}` }),
  },
  'create a payment intent': {
    routes: ['POST /api/create-payment-intent'],
    rule: 'ownerBuyer',
    ok: 200,
    request: async () => {
      const order = await freshOrder();
      return {
        method: 'POST',
        url: '/api/create-payment-intent',
        payload: { orderId: order.id, price: order.priceCents / 100 },
      };
    },
  },
  'record a payment': {
    routes: ['POST /api/payment'],
    rule: 'ownerBuyer',
    ok: 200,
    request: async () => {
      const order = await freshOrder();
      const secret = await intentOf(order.id, order.priceCents);
      const confirmed = await t.app.inject({
        method: 'POST',
        url: '/api/test-payments/confirm',
        payload: confirmBody(secret),
      });
      expect(confirmed.statusCode).toBe(200);
      const transactionId = confirmed.json().paymentIntent.id;
      return { method: 'POST', url: '/api/payment', payload: { transactionId, orderId: order.id } };
    },
  },
  // The client secret is the capability: whoever holds it may confirm that one intent.
  'confirm a test payment': {
    routes: ['POST /api/test-payments/confirm'],
    rule: 'anyone',
    ok: 200,
    request: async () => {
      const order = await freshOrder();
      const secret = await intentOf(order.id, order.priceCents);
      return { method: 'POST', url: '/api/test-payments/confirm', payload: confirmBody(secret) };
    },
  },
  'my live bookings': {
    routes: ['GET /api/bookings'],
    rule: 'anyAccount',
    ok: 200,
    request: get('/api/bookings'),
  },
  'read a sale': {
    routes: ['GET /api/orders/:id'],
    rule: 'saleSidesAndAdmin',
    ok: 200,
    request: async () => ({ method: 'GET', url: `/api/orders/${(await paidOrder()).id}` }),
  },
  'cancel a paid sale': {
    routes: ['POST /api/orders/:id/cancel'],
    rule: 'saleSides',
    ok: 200,
    request: async () => ({ method: 'POST', url: `/api/orders/${(await paidOrder()).id}/cancel` }),
  },
  'confirm the handover with the code': {
    routes: ['POST /api/orders/:id/handover'],
    rule: 'ownerSeller',
    ok: 200,
    request: async () => {
      const order = await paidOrder();
      return {
        method: 'POST',
        url: `/api/orders/${order.id}/handover`,
        payload: { code: order.handoverCode },
      };
    },
  },
  'report a problem': {
    routes: ['POST /api/orders/:id/report'],
    rule: 'ownerBuyer',
    ok: 200,
    request: async () => ({
      method: 'POST',
      url: `/api/orders/${(await completedOrder()).id}/report`,
      payload: { reason: 'The screen has a crack that was not described' },
    }),
  },
  'rate the other side': {
    routes: ['POST /api/orders/:id/rating'],
    rule: 'saleSides',
    ok: 200,
    request: async () => ({
      method: 'POST',
      url: `/api/orders/${(await completedOrder()).id}/rating`,
      payload: { stars: 5, comment: 'Smooth' },
    }),
  },
  'my sales': {
    routes: ['GET /api/sales'],
    rule: 'anySeller',
    ok: 200,
    request: get('/api/sales'),
  },
  'reported problems': {
    routes: ['GET /api/disputes'],
    rule: 'admin',
    ok: 200,
    request: get('/api/disputes'),
  },
  'decide a reported problem': {
    routes: ['POST /api/disputes/:id'],
    rule: 'admin',
    ok: 200,
    request: async () => ({
      method: 'POST',
      url: `/api/disputes/${(await disputedOrder()).id}`,
      payload: { decision: 'close' },
    }),
  },
  // Issue 30: a seller's money is their own (every call reads the caller's); only the admin
  // sees Finance.
  'my payouts': {
    routes: ['GET /api/payouts'],
    rule: 'anySeller',
    ok: 200,
    request: get('/api/payouts'),
  },
  'set my payout account': {
    routes: ['PUT /api/payouts/account'],
    rule: 'anySeller',
    ok: 200,
    request: async () => ({
      method: 'PUT',
      url: '/api/payouts/account',
      payload: {
        routingNumber: '110000000',
        accountNumber: '000123456789',
        password: GOOD_PASSWORD,
      },
    }),
  },
  // With the embedded processor a seller's account is a test bank account: onboarding with
  // Stripe is refused as a conflict to any seller, and to nobody else at all.
  'start Stripe onboarding': {
    routes: ['POST /api/payouts/account/stripe'],
    rule: 'anySeller',
    ok: 409,
    request: async () => ({
      method: 'POST',
      url: '/api/payouts/account/stripe',
      payload: { password: GOOD_PASSWORD },
    }),
  },
  finance: { routes: ['GET /api/finance'], rule: 'admin', ok: 200, request: get('/api/finance') },
  'finance as CSV': {
    routes: ['GET /api/finance.csv'],
    rule: 'admin',
    ok: 200,
    request: get('/api/finance.csv'),
  },
  // Issue 35: the admin's Overview and its CSV, the admin's alone.
  overview: {
    routes: ['GET /api/overview'],
    rule: 'admin',
    ok: 200,
    request: get('/api/overview?from=2026-01-01&to=2026-01-07'),
  },
  'overview as CSV': {
    routes: ['GET /api/overview.csv'],
    rule: 'admin',
    ok: 200,
    request: get('/api/overview.csv?table=models'),
  },
  health: { routes: ['GET /api/health'], rule: 'anyone', ok: 200, request: get('/api/health') },
  // The token is the metrics' own credential (tests/api/metrics.test.ts lets its bearer in): an
  // account's token is not it, so every caller is 401, not 403.
  metrics: {
    routes: ['GET /api/metrics'],
    rule: 'metricsScraper',
    ok: 200,
    except: { buyer: 401, otherBuyer: 401, seller: 401, otherSeller: 401, admin: 401 },
    request: get('/api/metrics'),
  },
  'client config': {
    routes: ['GET /api/config'],
    rule: 'anyone',
    ok: 200,
    request: get('/api/config'),
  },
  'web vitals': {
    routes: ['POST /api/vitals'],
    rule: 'anyone',
    ok: 204,
    request: async () => ({
      method: 'POST',
      url: '/api/vitals',
      payload: { name: 'CLS', value: 0.01, rating: 'good', id: 'v1', path: '/' },
    }),
  },
  'stored photos': {
    routes: ['GET /images/*'],
    rule: 'anyone',
    ok: 200,
    request: async () => ({ method: 'GET', url: storedImage }),
  },
  // The identity provider's own calls are public; a session cookie is what they hand out.
  'sign up': {
    routes: ['POST /api/auth/sign-up/email'],
    rule: 'anyone',
    ok: 200,
    request: async () => ({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: SAME_SITE,
      payload: { email: uniqueEmail('new'), name: 'New Person', password: GOOD_PASSWORD },
    }),
    answersTheCaller: true,
  },
  'sign in': {
    routes: ['POST /api/auth/sign-in/email'],
    rule: 'anyone',
    ok: 200,
    request: async () => ({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: SAME_SITE,
      payload: { email: who.otherBuyer.email, password: GOOD_PASSWORD },
    }),
    answersTheCaller: true,
  },
  'identity provider': {
    routes: ['GET /api/auth/*', 'POST /api/auth/*'],
    rule: 'anyone',
    ok: 200,
    request: get('/api/auth/ok'),
  },
  'OpenAPI document': docs('/api/openapi.json'),
  'API reference': docs('/api/docs'),
  // Swagger UI sends its static index to the reference's own address.
  'API reference page': docs('/api/docs/static/index.html', 302),
  'API reference JSON': docs('/api/docs/json'),
  'API reference YAML': docs('/api/docs/yaml'),
  'API reference script': docs('/api/docs/static/swagger-initializer.js'),
  'API reference assets': {
    routes: ['GET /api/docs/static/*'],
    rule: 'anyone',
    ok: 200,
    request: get('/api/docs/static/swagger-ui.css'),
  },
};

/** Rows of the app with Stripe as the provider: its webhook is public, its signature the check. */
const stripeEvent = () =>
  JSON.stringify({
    id: `evt_${randomBytes(6).toString('hex')}`,
    object: 'event',
    type: 'charge.updated',
    data: { object: { id: 'ch_1', object: 'charge' } },
  });
const webhook = (signature: (payload: string) => string): (() => Promise<Request>) => {
  return async () => {
    const payload = stripeEvent();
    return {
      method: 'POST',
      url: '/api/stripe/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature(payload) },
      payload,
    };
  };
};
const signer = new Stripe('sk_test_signer').webhooks;
const stripeRows: Record<string, Row> = {
  'Stripe webhook, signed': {
    routes: ['POST /api/stripe/webhook'],
    rule: 'anyone',
    ok: 200,
    request: webhook((payload) =>
      signer.generateTestHeaderString({ payload, secret: STRIPE_KEYS.STRIPE_WEBHOOK_SECRET }),
    ),
  },
  'Stripe webhook, signed with another secret': {
    routes: ['POST /api/stripe/webhook'],
    rule: 'anyone',
    ok: 400,
    request: webhook((payload) =>
      signer.generateTestHeaderString({ payload, secret: 'whsec_not_ours' }),
    ),
  },
};

async function signInCookie(account: Account): Promise<string> {
  const res = await signIn(t.app, account.email, account.password);
  expect(res.statusCode).toBe(200);
  return cookieOf(res);
}

beforeAll(async () => {
  stripe = await startStripeDouble(STRIPE_KEYS.STRIPE_SECRET_KEY);
  [t, stripeApp] = await Promise.all([
    buildTestApp({ METRICS_TOKEN: randomBytes(24).toString('hex') }),
    buildTestApp({ ...STRIPE_KEYS, STRIPE_API_URL: stripe.url }),
  ]);
  who.buyer = await createAccount(t.app, 'user');
  who.otherBuyer = await createAccount(t.app, 'user');
  who.seller = await createAccount(t.app, 'seller');
  who.otherSeller = await createAccount(t.app, 'seller');
  who.admin = await createAdmin(t.app, ADMIN_EMAIL);
  who.deletedAccount = await createAccount(t.app, 'user');
  const [deleted] = await t.database.db
    .select()
    .from(users)
    .where(eq(users.email, who.deletedAccount.email));
  const removal = await t.app.inject({
    method: 'DELETE',
    url: `/api/users?id=${deleted?.id}`,
    headers: who.admin.bearer,
  });
  expect(removal.statusCode).toBe(200);

  // Expired: a token past its lifetime, and a session cookie that was signed out.
  const expired = await expiredTokenLike(t.app, who.buyer.token);
  const endedSession = await signInCookie(who.buyer);
  const signOut = await t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-out',
    headers: { ...SAME_SITE, cookie: endedSession },
  });
  expect(signOut.statusCode).toBe(200);
  who.expiredToken = { ...who.buyer, token: expired, cookie: endedSession };
  // Forged: the buyer's e-mail signed with a key that is not ours, and a tampered cookie.
  const { sub, sid } = decodeJwt(who.buyer.token);
  const forged = await new AccessTokens(randomBytes(32).toString('hex')).issue({
    userId: String(sub),
    sessionId: String(sid),
  });
  const tampered = who.buyer.cookie.replace(/\.([^.;]+)(;|$)/, '.Zm9yZ2VkLXNpZ25hdHVyZQ%3D%3D$2');
  expect(tampered).not.toBe(who.buyer.cookie);
  who.forgedToken = { ...who.buyer, token: forged, cookie: tampered };

  credentials.anonymous = {};
  for (const name of CALLERS.filter((c) => c !== 'anonymous')) {
    const account = who[name as Exclude<CallerName, 'anonymous'>];
    credentials[name] = { authorization: `Bearer ${account.token}`, cookie: account.cookie };
  }

  photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#357' } })
    .jpeg()
    .toBuffer();
  const upload = await uploadPhoto(t.app, who.seller.bearer, photo);
  storedImage = upload.json().data.url;
  expect(storedImage).toMatch(/^\/images\//);
});

afterAll(async () => {
  await Promise.all([t?.close(), stripeApp?.close()]);
  await stripe?.close();
});

async function run(app: TestApp, row: Row) {
  const actual: Partial<Record<CallerName, number>> = {};
  const expected: Partial<Record<CallerName, number>> = {};
  const changedOnRefusal: string[] = [];
  for (const caller of CALLERS) {
    const { headers, ...request } = await row.request();
    // Saved searches' alerts run after a successful call's answer (decision 049): settled first.
    await app.app.savedSearchAlerts.idle();
    // So are the views of phone pages (a phone's data call counts one), written in batches
    // (decision 055).
    await app.app.views.flush();
    // And the photos and rows of a bulk upload (decision 057).
    await app.app.bulkUploads.idle();
    const before = await fingerprint(app.database.db);
    const res = await app.app.inject({
      ...request,
      headers: { ...credentials[caller], ...headers },
    } as InjectOptions);
    actual[caller] = res.statusCode;
    expected[caller] = expectedStatus(row, caller);
    if (
      row.rule === 'anyone' &&
      !row.describesTheApi &&
      !row.answersTheCaller &&
      res.statusCode < 300
    )
      expectNothingToReachAnyone(`${caller}: ${row.routes.join(', ')}`, res);
    if (res.statusCode >= 400) {
      expect(res.json().message, `${caller}: ${res.body}`).toEqual(expect.any(String));
      if (JSON.stringify(await fingerprint(app.database.db)) !== JSON.stringify(before))
        changedOnRefusal.push(caller);
    }
  }
  expect(actual).toEqual(expected);
  expect(changedOnRefusal, 'refused calls that changed data').toEqual([]);
}

describe('authorization matrix', () => {
  it.each(Object.entries(rows))('%s', async (_name, row) => run(t, row));
  it.each(Object.entries(stripeRows))('%s', async (_name, row) => run(stripeApp, row));

  it('has a row for every route the server registers', () => {
    const covered = new Set(
      [...Object.values(rows), ...Object.values(stripeRows)].flatMap((r) => r.routes),
    );
    const registered = [...t.app.routeList, ...stripeApp.app.routeList]
      // The API and the photos; the built client's static files are public pages by nature.
      .filter((r) => r.method !== 'HEAD' && /^\/(api|images)\//.test(r.url))
      .map((r) => `${r.method} ${r.url}`);
    const missing = [...new Set(registered)].filter((route) => !covered.has(route));
    expect(missing).toEqual([]);
  });
});
