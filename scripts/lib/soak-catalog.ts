/**
 * Stock for the soak test, listed through the seller API as sellers list phones: enough unsold
 * phones for every simulated buyer, and a separate pool for the deliberate races. The sellers'
 * accounts are kept: a seller hands a sold phone over (with the buyer's code) or cancels the sale.
 */
import sharp from 'sharp';
import { CATEGORY_CODES } from '../../src/shared/constants';
import { luhnValid } from '../../src/shared/luhn';
import { nextLink } from '../../src/shared/pagination';
import { type Account, createAccount, type Http, okOnly } from './soak-http';

export type Listed = { productId: string; price: number };

/** A valid IMEI of random digits (every listing needs one, and one live listing per IMEI). */
function randomImei(): string {
  const body = Array.from({ length: 14 }, () => Math.floor(Math.random() * 10)).join('');
  for (let d = 0; d <= 9; d++) if (luhnValid(`${body}${d}`)) return `${body}${d}`;
  throw new Error('no check digit');
}

const MODELS = [
  'iPhone 13',
  'Galaxy S22',
  'Infinix Note 30',
  'Oppo Reno 8',
  'Xiaomi 13T',
  'Pixel 7a',
];

async function pool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>) {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
    }),
  );
}

/**
 * A photo of the seller's own (a colour of theirs): sellers who all showed one picture would be
 * what the reused-photo rule catches (issue 34), and their phones held from the soak's buyers.
 */
async function uploadPhoto(http: Http, seller: Account, index: number): Promise<string | null> {
  const png = await sharp({
    create: {
      width: 640,
      height: 640,
      channels: 3,
      background: { r: (40 + index * 17) % 256, g: (90 + index * 29) % 256, b: 160 },
    },
  })
    .png()
    .toBuffer();
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'phone.png');
  const reply = await http.call('seed:upload-image', '/api/images', {
    method: 'POST',
    token: seller.token,
    form,
    accept: okOnly,
  });
  return (reply?.body as { data?: { url?: string } } | undefined)?.data?.url ?? null;
}

async function listPhone(
  http: Http,
  seller: Account,
  image: string,
  n: number,
): Promise<Listed | null> {
  const price = 100 + ((n * 37) % 800) + 0.99;
  const reply = await http.call('seed:add-product', '/api/products', {
    method: 'POST',
    token: seller.token,
    json: {
      categoryId: CATEGORY_CODES[n % CATEGORY_CODES.length],
      modelName: `${MODELS[n % MODELS.length]} #${n}`,
      image,
      originalPrice: price + 300,
      resellPrice: price,
      location: 'Austin, TX',
      description: 'Listed by the soak test.',
      timeUsed: 6 + (n % 30),
      condition: 'Good',
      sellerNumber: '+1 512 555 0100',
      specificatons: { ram: '8 GB', storage: '128 GB', color: 'Blue', battery: 4000 },
      imei: randomImei(),
    },
    accept: okOnly,
  });
  const id = (reply?.body as { insertedId?: string } | undefined)?.insertedId;
  return id ? { productId: id, price } : null;
}

export type Stock = {
  /**
   * The race pool's phones, which the other buyers leave alone: a race is judged by its racers
   * alone. (By id: a public answer names no seller's e-mail since issue 29, so telling them
   * apart by the seller's e-mail let any buyer book a race's phone, and win its race unseen.)
   */
  racePhones: Set<string>;
  racePool: Listed[];
  listed: number;
  /** Who sells each listed phone. */
  sellerOf: Map<string, Account>;
  /** Every seller, the race seller first: each gets a payout account (soak-payouts.ts). */
  sellers: Account[];
};

/** Shop sellers besides the race seller: enough that no one seller's cancels reach its limit. */
const SHOP_SELLERS = 11;
/** Race sellers: a race's phone is always handed over, so each is sure to have sales. */
const RACE_SELLERS = 2;

export async function seedStock(
  http: Http,
  runId: string,
  { phones, racePhones }: { phones: number; racePhones: number },
): Promise<Stock> {
  const sellers: Account[] = [];
  for (let i = 0; i < RACE_SELLERS + SHOP_SELLERS; i++) {
    const email = `soak-${runId}-seller${i}@soak.example`;
    const account = await createAccount(http, email, `Soak Seller ${i}`, 'seller');
    if (!account) throw new Error(`could not create seller ${email}`);
    sellers.push(account);
  }
  const raceSellers = sellers.slice(0, RACE_SELLERS);
  const shopSellers = sellers.slice(RACE_SELLERS);
  const photos = new Map<string, string>();
  for (const [index, seller] of sellers.entries()) {
    const url = await uploadPhoto(http, seller, index);
    if (!url) throw new Error('could not upload a photo');
    photos.set(seller.email, url);
  }
  const shop: { listed: Listed; seller: Account }[] = [];
  const sellerOf = new Map<string, Account>();
  await pool(
    Array.from({ length: phones }, (_, n) => n),
    8,
    async (n) => {
      const seller = shopSellers[n % shopSellers.length] as Account;
      const listed = await listPhone(http, seller, photos.get(seller.email) ?? '', n);
      if (!listed) return;
      shop.push({ listed, seller });
      sellerOf.set(listed.productId, seller);
    },
  );
  // A few on the home page's advertised list, so it changes as they sell.
  for (const { listed, seller } of shop.slice(0, 10)) {
    await http.call('seed:advertise', `/api/advertise?id=${listed.productId}`, {
      method: 'POST',
      token: seller.token,
      accept: okOnly,
    });
  }
  const racePool: Listed[] = [];
  await pool(
    Array.from({ length: racePhones }, (_, n) => n),
    8,
    async (n) => {
      const raceSeller = raceSellers[n % RACE_SELLERS] as Account;
      const listed = await listPhone(http, raceSeller, photos.get(raceSeller.email) ?? '', n);
      if (!listed) return;
      racePool.push(listed);
      sellerOf.set(listed.productId, raceSeller);
    },
  );
  return {
    racePhones: new Set(racePool.map((phone) => phone.productId)),
    racePool,
    listed: shop.length + racePool.length,
    sellerOf,
    sellers,
  };
}

/** Every product id already sold before the soak, read through the public catalog. */
export async function soldBefore(http: Http): Promise<Set<string>> {
  const sold = new Set<string>();
  for (const code of CATEGORY_CODES) {
    let path: string | null = `/api/category/${code}?limit=100`;
    while (path) {
      const reply: Awaited<ReturnType<Http['call']>> = await http.call('seed:catalog', path, {
        accept: okOnly,
      });
      if (!reply) throw new Error('could not read the catalog');
      for (const p of reply.body as { _id: string; status: string }[]) {
        if (p.status === 'sold') sold.add(p._id);
      }
      path = nextLink(reply.headers.get('link'));
    }
  }
  return sold;
}
