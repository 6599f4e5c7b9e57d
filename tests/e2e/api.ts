/** Accounts and phones made through the real API, as the client would, for browser tests. */
import { type APIRequestContext, request } from '@playwright/test';
import sharp from 'sharp';

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
      },
    }),
  );
}

async function ok(response: ReturnType<APIRequestContext['get']>) {
  const res = await response;
  if (!res.ok()) throw new Error(`${res.url()} answered ${res.status()}: ${await res.text()}`);
  return res;
}
