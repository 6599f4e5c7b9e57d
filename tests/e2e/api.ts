/** Accounts and phones made through the real API, as the client would, for browser tests. */
import { type APIRequestContext, request } from '@playwright/test';
import sharp from 'sharp';
import { luhnValid } from '../../src/shared/luhn';

export const API_PASSWORD = 'Made-By-Api1!';

export async function createAccountViaApi(baseURL: string, type: 'user' | 'seller', label: string) {
  const api = await request.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL } });
  const email = `${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@e2e.example`;
  const name = `${label} ${email.slice(label.length + 1, label.length + 7)}`;
  await ok(api.post('/api/auth/sign-up/email', { data: { email, name, password: API_PASSWORD } }));
  await ok(api.post('/api/users', { data: { email, name, type } }));
  const token = await ok(api.get(`/api/jwt?email=${encodeURIComponent(email)}`));
  const { accessToken } = (await token.json()) as { accessToken: string };
  return { api, email, name, bearer: { authorization: `bearer ${accessToken}` } };
}

export async function createSellerWithPhone(
  baseURL: string,
  categoryId: string,
  modelName: string,
) {
  const seller = await createAccountViaApi(baseURL, 'seller', 'seller');
  const buffer = await sharp({
    create: { width: 800, height: 600, channels: 3, background: '#357' },
  })
    .jpeg()
    .toBuffer();
  const upload = await ok(
    seller.api.post('/api/images', {
      headers: seller.bearer,
      multipart: { image: { name: 'phone.jpg', mimeType: 'image/jpeg', buffer } },
    }),
  );
  const image = ((await upload.json()) as { data: { url: string } }).data.url;
  await listPhone(seller, { categoryId, modelName, image });
  return seller;
}

/** Lists a phone for `seller` with the browser tests' usual fields. */
export async function listPhone(
  seller: Awaited<ReturnType<typeof createAccountViaApi>>,
  phone: { categoryId: string; modelName: string; image: string },
) {
  await ok(
    seller.api.post('/api/products', {
      headers: seller.bearer,
      data: {
        ...phone,
        originalPrice: 500,
        resellPrice: 250,
        location: 'Denver, CO',
        description: 'Made for a browser test.',
        timeUsed: 3,
        condition: 'Good',
        sellerNumber: '+1 303 555 0100',
        specificatons: { ram: '8 GB', storage: '128 GB', color: 'Blue', battery: 4500 },
        imei: uniqueImei(),
      },
    }),
  );
}

export type Account = Awaited<ReturnType<typeof createAccountViaApi>>;

/** A second phone of `seller`'s, with the photo of the first. */
export async function listAnotherPhone(seller: Account, modelName: string, categoryId = '04') {
  const [first] = Object.values(await productsOf(seller));
  await listPhone(seller, { categoryId, modelName, image: first?.image ?? '' });
}

/** The seller's phones by model name. */
export async function productsOf(
  seller: Account,
): Promise<Record<string, { _id: string; image: string }>> {
  const res = await ok(
    seller.api.get(`/api/products?email=${encodeURIComponent(seller.email)}`, {
      headers: seller.bearer,
    }),
  );
  const list = (await res.json()) as { _id: string; modelName: string; image: string }[];
  return Object.fromEntries(list.map((p) => [p.modelName, p]));
}

/** The id of `seller`'s phone named `modelName`. */
export async function productIdOf(seller: Account, modelName: string): Promise<string> {
  const phone = (await productsOf(seller))[modelName];
  if (!phone) throw new Error(`${seller.email} has no phone ${modelName}`);
  return phone._id;
}

/** Books `productId` for `buyer` and answers the order's id. */
export async function bookPhone(buyer: Account, productId: string): Promise<string> {
  const res = await ok(
    buyer.api.post('/api/order', {
      headers: buyer.bearer,
      data: { productId, location: 'Station', number: '+1 303 555 0150' },
    }),
  );
  const { insertedId } = (await res.json()) as { insertedId?: string };
  if (!insertedId) throw new Error('the booking answered no order id');
  return insertedId;
}

/** Pays an order as the payment page does, with the test card that pays ($250, listPhone's price). */
export async function payOrder(buyer: Account, orderId: string) {
  const intent = await ok(
    buyer.api.post('/api/create-payment-intent', {
      headers: buyer.bearer,
      data: { price: 250, orderId },
    }),
  );
  const { clientSecret } = (await intent.json()) as { clientSecret: string };
  const confirmed = await ok(
    buyer.api.post('/api/test-payments/confirm', {
      data: {
        clientSecret,
        card: { number: '4242424242424242', expMonth: 12, expYear: 2034, cvc: '123' },
        billingDetails: { name: buyer.name, email: buyer.email },
      },
    }),
  );
  const { paymentIntent } = (await confirmed.json()) as { paymentIntent: { id: string } };
  await ok(
    buyer.api.post('/api/payment', {
      headers: buyer.bearer,
      data: { transactionId: paymentIntent.id, orderId },
    }),
  );
}

/** The sale as `account` sees it (the buyer's view holds the handover code while it is paid). */
export async function saleOf(account: Account, orderId: string) {
  const res = await ok(account.api.get(`/api/orders/${orderId}`, { headers: account.bearer }));
  return (await res.json()) as { stage: string; handoverCode: string | null };
}

/** The seller enters the code of the buyer's paid order: the sale completes. */
export async function handOver(seller: Account, buyer: Account, orderId: string) {
  const { handoverCode } = await saleOf(buyer, orderId);
  await ok(
    seller.api.post(`/api/orders/${orderId}/handover`, {
      headers: seller.bearer,
      data: { code: handoverCode },
    }),
  );
}

/** Books, pays, hands over and reports a problem: a sale the admin must decide. */
export async function disputedSale(baseURL: string, modelName: string) {
  const seller = await createSellerWithPhone(baseURL, '04', modelName);
  const buyer = await createAccountViaApi(baseURL, 'user', 'disputer');
  const orderId = await bookPhone(buyer, await productIdOf(seller, modelName));
  await payOrder(buyer, orderId);
  await handOver(seller, buyer, orderId);
  await ok(
    buyer.api.post(`/api/orders/${orderId}/report`, {
      headers: buyer.bearer,
      data: { reason: 'The screen flickers after ten minutes.' },
    }),
  );
  return { seller, buyer, orderId };
}

async function ok(response: ReturnType<APIRequestContext['get']>) {
  const res = await response;
  if (!res.ok()) throw new Error(`${res.url()} answered ${res.status()}: ${await res.text()}`);
  return res;
}

/** A valid IMEI (the last digit checks the first 14 by Luhn) no other run makes: random digits. */
export function uniqueImei(): string {
  const body = Array.from({ length: 14 }, () => Math.floor(Math.random() * 10)).join('');
  for (let d = 0; d <= 9; d++) if (luhnValid(`${body}${d}`)) return `${body}${d}`;
  throw new Error('no check digit');
}
