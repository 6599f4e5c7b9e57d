/**
 * Demo data for a fresh machine: sellers (one verified), a buyer, ~40 phones, some sold, five
 * advertised, each with a checked IMEI and most with their battery health; and completed sales
 * of the last 90 days of four of their models, so that the price guide and the cards' "Good
 * price" and "High price" notes show from the first start (issue 19).
 */

import { randomBytes, randomInt } from 'node:crypto';
import { inArray, sql } from 'drizzle-orm';
import type { CategoryCode } from '../../shared/constants';
import { DEFAULT_FEE_RULE, feeCents } from '../../shared/fees';
import { luhnValid } from '../../shared/luhn';
import type { IdentityProvider } from '../auth/identity-provider';
import { loadSecret } from '../auth/secrets';
import type { Db } from '../db/client';
import { advertisements, orders, paymentIntents, payments, products, users } from '../db/schema';
import type { ImageStore } from '../images/image-store';
import type { ImeiVault } from '../imei/imei-vault';
import { toCents } from '../repositories/money';
import { recordPhotoHashes } from '../risk/photo-match';
import { phoneSvg } from './phone-art';

type Listing = [
  categoryId: CategoryCode,
  modelName: string,
  ram: string,
  storage: string,
  color: string,
  battery: number,
  originalPrice: number,
  resellPrice: number,
  timeUsed: number,
  condition: string,
  description: string,
];

const LISTINGS: Listing[] = [
  [
    '01',
    'iPhone 15 Pro Max',
    '8 GB',
    '256 GB',
    'Graphite',
    4441,
    1199,
    949,
    6,
    'Flawless',
    'Titanium frame without a scratch, battery health 97%. Box and cable included.',
  ],
  [
    '01',
    'iPhone 14',
    '6 GB',
    '128 GB',
    'Midnight',
    3279,
    799,
    529,
    14,
    'Good',
    'Light hairlines on the back glass, screen perfect. Always used with a case.',
  ],
  [
    '01',
    'iPhone 13 mini',
    '4 GB',
    '128 GB',
    'Pink',
    2438,
    699,
    379,
    22,
    'Good',
    'Small and light, battery health 86%. Unlocked for every carrier.',
  ],
  [
    '01',
    'iPhone 12',
    '4 GB',
    '64 GB',
    'Blue',
    2815,
    699,
    299,
    30,
    'Fair',
    'Works perfectly; a small chip on the bottom-left corner of the frame.',
  ],
  [
    '01',
    'iPhone SE (2022)',
    '4 GB',
    '64 GB',
    'Red',
    2018,
    429,
    219,
    18,
    'Good',
    'Touch ID, 5G, compact. Screen protector applied since day one.',
  ],
  [
    '01',
    'iPhone 14 Pro',
    '6 GB',
    '256 GB',
    'Silver',
    3200,
    1099,
    749,
    12,
    'Flawless',
    'Always-on display, 48 MP camera. Original receipt available.',
  ],
  [
    '01',
    'iPhone 11',
    '4 GB',
    '128 GB',
    'White',
    3110,
    599,
    229,
    40,
    'Minor Damage',
    'Back glass cracked near the camera; everything works, priced to match.',
  ],
  [
    '01',
    'iPhone 13',
    '4 GB',
    '128 GB',
    'Starlight',
    3240,
    799,
    449,
    20,
    'Good',
    'Battery health 88%, face ID fine, a few marks on the frame.',
  ],
  [
    '02',
    'Galaxy S23 Ultra',
    '12 GB',
    '256 GB',
    'Green',
    5000,
    1199,
    829,
    10,
    'Flawless',
    'With S Pen, no burn-in, 200 MP camera. Comes with two cases.',
  ],
  [
    '02',
    'Galaxy S22',
    '8 GB',
    '128 GB',
    'Black',
    3700,
    799,
    399,
    24,
    'Good',
    'Compact flagship, screen without scratches, slight wear on corners.',
  ],
  [
    '02',
    'Galaxy A54',
    '8 GB',
    '128 GB',
    'Purple',
    5000,
    449,
    259,
    11,
    'Good',
    'Great battery life, expandable storage, IP67. Charger included.',
  ],
  [
    '02',
    'Galaxy Z Flip 4',
    '8 GB',
    '256 GB',
    'Purple',
    3700,
    999,
    479,
    19,
    'Fair',
    'Fold crease visible as usual; hinge firm. Outer screen perfect.',
  ],
  [
    '02',
    'Galaxy S21 FE',
    '6 GB',
    '128 GB',
    'White',
    4500,
    699,
    279,
    28,
    'Good',
    'Reliable daily phone, 120 Hz screen, battery lasts a full day.',
  ],
  [
    '02',
    'Galaxy A34',
    '6 GB',
    '128 GB',
    'Silver',
    5000,
    349,
    189,
    9,
    'Flawless',
    'Like new, used as a backup phone. Box and papers included.',
  ],
  [
    '02',
    'Galaxy Note 20',
    '8 GB',
    '256 GB',
    'Gold',
    4300,
    999,
    339,
    36,
    'Minor Damage',
    'Small crack on the lower edge of the screen protector only; S Pen works.',
  ],
  [
    '02',
    'Galaxy M33',
    '6 GB',
    '128 GB',
    'Blue',
    6000,
    299,
    149,
    25,
    'Good',
    'Huge 6000 mAh battery, two days per charge. A few scratches.',
  ],
  [
    '03',
    'Infinix Note 30',
    '8 GB',
    '256 GB',
    'Black',
    5000,
    229,
    159,
    7,
    'Flawless',
    '45 W fast charging, JBL speakers. Used for a few months only.',
  ],
  [
    '03',
    'Infinix Hot 30',
    '8 GB',
    '128 GB',
    'Blue',
    5000,
    169,
    109,
    10,
    'Good',
    'Big screen, big battery. Minor scuffs on the back.',
  ],
  [
    '03',
    'Infinix Zero 30',
    '12 GB',
    '256 GB',
    'Gold',
    5000,
    299,
    219,
    5,
    'Brand New',
    'Sealed box, received as a gift. 50 MP selfie camera.',
  ],
  [
    '03',
    'Infinix Smart 7',
    '4 GB',
    '64 GB',
    'Green',
    6000,
    99,
    59,
    14,
    'Good',
    'Simple, sturdy phone with a battery that lasts forever.',
  ],
  [
    '03',
    'Infinix Note 12',
    '6 GB',
    '128 GB',
    'White',
    5000,
    199,
    99,
    26,
    'Fair',
    'AMOLED screen, works well; back panel has visible scratches.',
  ],
  [
    '03',
    'Infinix Hot 20',
    '4 GB',
    '64 GB',
    'Purple',
    5000,
    149,
    79,
    20,
    'Good',
    '90 Hz screen, clean software, charger included.',
  ],
  [
    '03',
    'Infinix Zero Ultra',
    '8 GB',
    '256 GB',
    'Silver',
    4500,
    399,
    249,
    16,
    'Good',
    '180 W charging: full in 12 minutes. Curved screen in good shape.',
  ],
  [
    '03',
    'Infinix GT 10 Pro',
    '8 GB',
    '256 GB',
    'Black',
    5000,
    269,
    189,
    8,
    'Flawless',
    'Gaming phone with a light strip on the back; runs everything smoothly.',
  ],
  [
    '04',
    'Oppo Find X6 Pro',
    '16 GB',
    '1 GTB',
    'Black',
    5000,
    1099,
    699,
    12,
    'Flawless',
    'One-inch camera sensor, leather back in perfect condition.',
  ],
  [
    '04',
    'Oppo Reno 10',
    '8 GB',
    '256 GB',
    'Silver',
    5000,
    399,
    249,
    9,
    'Good',
    'Portrait telephoto camera, 67 W charging, light wear.',
  ],
  [
    '04',
    'Oppo A78',
    '8 GB',
    '128 GB',
    'Green',
    5000,
    249,
    149,
    13,
    'Good',
    'Good everyday phone, stereo speakers, fast charging.',
  ],
  [
    '04',
    'Oppo Reno 8T',
    '8 GB',
    '128 GB',
    'Orange',
    5000,
    349,
    199,
    17,
    'Fair',
    'Eye-catching orange back; frame has a dent on one corner.',
  ],
  [
    '04',
    'Oppo A57',
    '4 GB',
    '64 GB',
    'Black',
    5000,
    179,
    89,
    24,
    'Good',
    'Solid budget phone, battery still strong, no cracks.',
  ],
  [
    '04',
    'Oppo Find N2 Flip',
    '8 GB',
    '256 GB',
    'Purple',
    4300,
    849,
    499,
    15,
    'Good',
    'Large cover screen, hinge tight, small crease as expected.',
  ],
  [
    '04',
    'Oppo F21 Pro',
    '8 GB',
    '128 GB',
    'Orange',
    4500,
    299,
    139,
    27,
    'Minor Damage',
    'Screen has a hairline crack in a corner; touch works everywhere.',
  ],
  [
    '04',
    'Oppo Reno 7',
    '8 GB',
    '128 GB',
    'Blue',
    4500,
    349,
    159,
    30,
    'Good',
    'Clean and fast, used by a careful owner. Case included.',
  ],
  [
    '05',
    'Xiaomi 13 Pro',
    '12 GB',
    '256 GB',
    'White',
    4820,
    999,
    649,
    11,
    'Flawless',
    'Leica cameras, 120 W charging. Ceramic back without marks.',
  ],
  [
    '05',
    'Redmi Note 12',
    '6 GB',
    '128 GB',
    'Blue',
    5000,
    229,
    129,
    14,
    'Good',
    'AMOLED screen, great value, slight scratches on the frame.',
  ],
  [
    '05',
    'Poco F5',
    '12 GB',
    '256 GB',
    'Black',
    5000,
    429,
    279,
    9,
    'Flawless',
    'Flagship speed for less, used gently, screen protector on.',
  ],
  [
    '05',
    'Redmi 12C',
    '4 GB',
    '64 GB',
    'Purple',
    5000,
    129,
    69,
    18,
    'Good',
    'A basic phone that does everything you need, with a big battery.',
  ],
  [
    '05',
    'Xiaomi 12T',
    '8 GB',
    '256 GB',
    'Silver',
    5000,
    599,
    319,
    20,
    'Good',
    '108 MP camera, 120 W charging. Light signs of use.',
  ],
  [
    '05',
    'Poco X5 Pro',
    '8 GB',
    '256 GB',
    'Gold',
    5000,
    349,
    209,
    12,
    'Good',
    '120 Hz AMOLED, fast and smooth. Charger and case included.',
  ],
  [
    '05',
    'Redmi Note 11',
    '4 GB',
    '64 GB',
    'Graphite',
    5000,
    199,
    89,
    32,
    'Fair',
    'Works well, battery health fine, visible wear on the back.',
  ],
  [
    '05',
    'Xiaomi 11T Pro',
    '8 GB',
    '256 GB',
    'Blue',
    5000,
    649,
    279,
    26,
    'Minor Damage',
    'Small crack on the back glass; front screen perfect.',
  ],
];

export const DEMO_SELLERS = [
  { name: 'Maya Chen', email: 'seller@example.com', number: '+1 512 555 0143', verified: true },
  {
    name: 'Omar Haddad',
    email: 'omar.haddad@example.com',
    number: '+1 718 555 0187',
    verified: false,
  },
  {
    name: 'Lena Kovac',
    email: 'lena.kovac@example.com',
    number: '+1 206 555 0112',
    verified: false,
  },
] as const;
export const DEMO_BUYER = { name: 'Sam Rivera', email: 'buyer@example.com' } as const;
export const DEMO_ADMIN = { name: 'Alex Admin', email: 'admin@example.com' } as const;
/**
 * People who bought phones before the demo starts (the price guide's sales): accounts without a
 * password, so nobody signs in as them; the demo buyer made some of those purchases too.
 */
export const DEMO_PAST_BUYERS = [
  { name: 'Jordan Blake', email: 'jordan.blake@example.com', number: '+1 512 555 0164' },
  { name: 'Priya Nair', email: 'priya.nair@example.com', number: '+1 718 555 0129' },
  { name: 'Chris Okafor', email: 'chris.okafor@example.com', number: '+1 206 555 0178' },
] as const;
const DEMO_BUYER_NUMBER = '+1 512 555 0190';

/** A completed sale of the demo's past: how many days ago it was handed over, the price, the condition. */
type PastSale = [daysAgo: number, price: number, condition: string];

/**
 * Completed sales of phones like four live listings (the same model and storage), all 8 to 88
 * days old: inside the guide's 90 days, and past the 7 days in which a buyer may report a problem.
 * Medians: iPhone 14 of its five Good sales $559 (listed Good at $529: "Good price", and the
 * guide by condition); iPhone 13 $474 (at $449: good); Galaxy S22 $337 (at $399, above 1.15 ×
 * $337 = $387.55: "High price"); Redmi Note 12 $140.50 (at $129: good).
 */
const PAST_SALES: { model: string; sales: PastSale[] }[] = [
  {
    model: 'iPhone 14',
    sales: [
      [9, 549, 'Good'],
      [17, 575, 'Good'],
      [26, 539, 'Good'],
      [41, 589, 'Good'],
      [63, 559, 'Good'],
      [34, 629, 'Flawless'],
      [78, 649, 'Flawless'],
    ],
  },
  {
    model: 'iPhone 13',
    sales: [
      [12, 459, 'Good'],
      [22, 479, 'Flawless'],
      [31, 469, 'Good'],
      [47, 489, 'Flawless'],
      [58, 455, 'Fair'],
      [84, 499, 'Flawless'],
    ],
  },
  {
    model: 'Galaxy S22',
    sales: [
      [10, 329, 'Good'],
      [19, 339, 'Good'],
      [29, 345, 'Flawless'],
      [44, 319, 'Fair'],
      [57, 355, 'Good'],
      [81, 335, 'Good'],
    ],
  },
  {
    model: 'Redmi Note 12',
    sales: [
      [8, 139, 'Good'],
      [21, 145, 'Good'],
      [36, 135, 'Fair'],
      [50, 149, 'Flawless'],
      [67, 129, 'Fair'],
      [88, 142, 'Good'],
    ],
  },
];

/**
 * Older sales of the iPhone 13 (issue 33): two or three a week on the same day, by different
 * sellers to different past buyers, 96 to 355 days old, so its phone page draws a year of prices
 * (a week is drawn with two sellers and two buyers). All older than the guide's 90 days: the
 * guide and the notes above are as they were, and the demo buyer's orders too.
 */
const OLDER_SALES: { model: string; sales: PastSale[] }[] = [
  {
    model: 'iPhone 13',
    sales: [
      [355, 579, 'Good'],
      [355, 595, 'Flawless'],
      [320, 565, 'Good'],
      [320, 549, 'Fair'],
      [320, 585, 'Flawless'],
      [285, 555, 'Good'],
      [285, 539, 'Good'],
      [250, 545, 'Good'],
      [250, 529, 'Fair'],
      [250, 559, 'Flawless'],
      [215, 525, 'Good'],
      [215, 539, 'Flawless'],
      [180, 515, 'Good'],
      [180, 499, 'Fair'],
      [180, 529, 'Flawless'],
      [145, 499, 'Good'],
      [145, 515, 'Flawless'],
      [110, 489, 'Good'],
      [110, 475, 'Fair'],
      [96, 485, 'Good'],
      [96, 495, 'Flawless'],
    ],
  },
];

const PAST_SALE_TEXTS: Record<string, string> = {
  Flawless: 'No marks anywhere, always in a case. Box and cable included.',
  Good: 'Light signs of use on the frame, screen without scratches.',
  Fair: 'Visible wear on the back and corners; everything works.',
};
const MEETING_PLACES = [
  'Café on Congress Ave',
  'Public library, main entrance',
  'Coffee shop by the station',
  'Mall food court',
];

/** Battery health stated in a listing's description wins; some sellers leave it out (null). */
const STATED_HEALTH: Record<number, number> = { 0: 97, 2: 86, 7: 88 };
function batteryHealthOf(i: number, timeUsed: number, condition: string): number | null {
  const stated = STATED_HEALTH[i];
  if (stated !== undefined) return stated;
  if (condition === 'Brand New') return 100;
  if (i % 8 === 5) return null;
  return Math.max(70, Math.min(99, Math.round(99 - timeUsed * 0.6 - (i % 4))));
}

/**
 * The `n`th demo IMEI: 14 digits that differ for every n, and their Luhn check digit. Fixed,
 * so every fresh demo has the same ones.
 */
export function demoImei(n: number): string {
  const body = `35${String(209_551_000_000 + n * 104_729).padStart(12, '0')}`;
  for (let d = 0; d <= 9; d++) if (luhnValid(`${body}${d}`)) return `${body}${d}`;
  throw new Error('no check digit');
}

/** One password for every demo account, made on the first start and kept in DATA_DIR. */
export const demoPassword = (dataDir: string) =>
  loadSecret(
    dataDir,
    'demo-password',
    undefined,
    () => `Demo-${randomBytes(6).toString('base64url')}a7!`,
  );

const LOCATIONS = [
  'Austin, TX',
  'Brooklyn, NY',
  'Seattle, WA',
  'Chicago, IL',
  'Denver, CO',
  'Boston, MA',
];
/** Indexes into LISTINGS. */
const SOLD = new Set([3, 12, 21, 28, 37]);
const ADVERTISED = [0, 8, 17, 24, 32];

export async function hasAnyUser(db: Db): Promise<boolean> {
  const rows = await db.select({ one: sql<number>`1` }).from(users).limit(1);
  return rows.length > 0;
}

/** The demo accounts this database still has, for the start banner, in the banner's order. */
export async function demoAccountsPresent(
  db: Db,
): Promise<{ role: 'admin' | 'seller' | 'buyer'; email: string; verified: boolean }[]> {
  const all = [
    { role: 'admin' as const, email: DEMO_ADMIN.email },
    ...DEMO_SELLERS.map((s) => ({ role: 'seller' as const, email: s.email })),
    { role: 'buyer' as const, email: DEMO_BUYER.email },
  ];
  const rows = await db
    .select({ email: users.email, isAdmin: users.isAdmin, userStatus: users.userStatus })
    .from(users)
    .where(
      inArray(
        users.email,
        all.map((a) => a.email),
      ),
    );
  const found = new Map(rows.map((r) => [r.email, r]));
  return all.flatMap((a) => {
    const row = found.get(a.email);
    if (!row || (a.role === 'admin' && !row.isAdmin)) return [];
    return [{ ...a, verified: row.userStatus === 'verified' }];
  });
}

type ProductValues = typeof products.$inferInsert;

/**
 * Inserts the demo data; older phones first so that `seq` follows `timeOfPost`. Runs on an
 * empty database only (server.ts), everything but the identities in one transaction. Each past
 * sale is written as the sale process leaves one: the phone sold, the order paid and completed
 * (its seller, handover code and times set), its payment captured and the embedded processor's
 * intent succeeded for the same amount (what the soak's reconciliation checks).
 */
export async function seedDemo(
  db: Db,
  images: ImageStore,
  identity: IdentityProvider,
  vault: ImeiVault,
  password: string,
  now = new Date(),
): Promise<void> {
  for (const account of [...DEMO_SELLERS, DEMO_BUYER, DEMO_ADMIN]) {
    await identity.createIdentity({ email: account.email, name: account.name, password });
  }
  const imageUrls = new Map<string, string>();
  for (const [categoryId, , , , color] of LISTINGS) {
    const key = `${categoryId}:${color}`;
    if (imageUrls.has(key)) continue;
    const art = Buffer.from(phoneSvg(categoryId, color));
    const { url } = await images.save(art);
    await recordPhotoHashes(db, url, art);
    imageUrls.set(key, url);
  }
  const day = 24 * 60 * 60 * 1000;
  const ago = (days: number) => new Date(now.getTime() - days * day);
  let imeis = 0;
  const imeiColumns = () => {
    const kept = vault.keep(demoImei(imeis++));
    return { imeiHash: kept.hash, imeiLast4: kept.last4, imeiSealed: kept.sealed };
  };
  const phoneValues = (
    l: Listing,
    n: number,
    changes: Pick<ProductValues, 'resellPriceCents' | 'condition' | 'status' | 'createdAt'> &
      Partial<ProductValues>,
  ): ProductValues => {
    const [
      categoryId,
      modelName,
      ram,
      storage,
      color,
      battery,
      original,
      ,
      timeUsed,
      ,
      description,
    ] = l;
    const seller = DEMO_SELLERS[n % DEMO_SELLERS.length] ?? DEMO_SELLERS[0];
    const image = imageUrls.get(`${categoryId}:${color}`) ?? '';
    return {
      categoryId,
      modelName,
      image,
      photos: [image],
      originalPriceCents: toCents(original),
      location: LOCATIONS[n % LOCATIONS.length] ?? 'Austin, TX',
      description,
      timeUsed,
      ram,
      storage,
      color,
      battery,
      sellerName: seller.name,
      sellerNumber: seller.number,
      sellerEmail: seller.email,
      ...imeiColumns(),
      ...changes,
    };
  };

  const live: ProductValues[] = LISTINGS.map((l, i) => {
    const [, , , , , , , resell, timeUsed, condition] = l;
    return phoneValues(l, i, {
      resellPriceCents: toCents(resell),
      condition,
      status: SOLD.has(i) ? 'sold' : 'available',
      batteryHealth: batteryHealthOf(i, timeUsed, condition),
      createdAt: ago((LISTINGS.length - i) * 1.5),
    });
  });
  const past = [
    ...PAST_SALES.map((p) => ({ ...p, older: false })),
    ...OLDER_SALES.map((p) => ({ ...p, older: true })),
  ].flatMap(({ model, sales, older }) => {
    const listing = LISTINGS.find((l) => l[1] === model);
    if (!listing) throw new Error(`no demo listing of ${model}`);
    return sales.map(([daysAgo, price, condition], k) => ({
      daysAgo,
      price,
      older,
      phone: phoneValues(listing, k + 1, {
        resellPriceCents: toCents(price),
        condition,
        status: 'sold',
        description: PAST_SALE_TEXTS[condition] ?? listing[10],
        timeUsed: listing[8] + (k % 4) * 3,
        batteryHealth: 80 + ((k * 7) % 19),
        // Listed a few days before it sold.
        createdAt: ago(daysAgo + 3 + (k % 5)),
      }),
    }));
  });
  // One insert, oldest first, so that `seq` follows `timeOfPost` across live and sold phones.
  const all = [...live, ...past.map((p) => p.phone)];
  const order = all
    .map((values, index) => ({ values, index }))
    .sort((a, b) => (a.values.createdAt?.getTime() ?? 0) - (b.values.createdAt?.getTime() ?? 0));

  await db.transaction(async (tx) => {
    const accounts = await tx
      .insert(users)
      .values([
        ...DEMO_SELLERS.map((s) => ({
          name: s.name,
          email: s.email,
          type: 'seller' as const,
          userStatus: s.verified ? 'verified' : null,
        })),
        { name: DEMO_BUYER.name, email: DEMO_BUYER.email, type: 'user' as const },
        // Admin by its own record, in this database only (never by its address: decision 017).
        { name: DEMO_ADMIN.name, email: DEMO_ADMIN.email, type: 'user' as const, isAdmin: true },
        ...DEMO_PAST_BUYERS.map((b) => ({ name: b.name, email: b.email, type: 'user' as const })),
      ])
      .returning({ id: users.id, email: users.email });
    const idOf = new Map(accounts.map((a) => [a.email, a.id]));
    const insertedInOrder = await tx
      .insert(products)
      .values(order.map((o) => o.values))
      .returning({ id: products.id });
    const ids: string[] = [];
    order.forEach((o, k) => {
      ids[o.index] = insertedInOrder[k]?.id ?? '';
    });
    await tx.insert(advertisements).values(
      ADVERTISED.map((i, n) => ({
        productId: ids[i] ?? '',
        createdAt: new Date(now.getTime() - (ADVERTISED.length - n) * 60_000),
      })),
    );

    // The past sales: every fourth by the demo buyer, the others by the past buyers.
    const buyers = [
      { ...DEMO_BUYER, number: DEMO_BUYER_NUMBER },
      ...DEMO_PAST_BUYERS,
      ...DEMO_PAST_BUYERS,
      ...DEMO_PAST_BUYERS,
    ];
    const sales = past.map(({ daysAgo, price, phone, older }, k) => {
      // The older sales by the past buyers only, in turn: none is the demo buyer's order.
      const buyer =
        (older ? DEMO_PAST_BUYERS[k % DEMO_PAST_BUYERS.length] : buyers[k % buyers.length]) ??
        DEMO_PAST_BUYERS[0];
      const completedAt = ago(daysAgo);
      const paidAt = new Date(completedAt.getTime() - (1 + (k % 3)) * day);
      const intentId = `pi_${randomBytes(12).toString('hex')}`;
      return { buyer, completedAt, paidAt, intentId, priceCents: toCents(price), phone, k };
    });
    const saleOrders = await tx
      .insert(orders)
      .values(
        sales.map(({ buyer, completedAt, paidAt, priceCents, phone, k }) => ({
          buyerId: idOf.get(buyer.email) ?? null,
          email: buyer.email,
          userName: buyer.name,
          productId: ids[LISTINGS.length + k] ?? '',
          productName: phone.modelName,
          storage: phone.storage,
          condition: phone.condition,
          image: phone.image,
          priceCents,
          location: MEETING_PLACES[k % MEETING_PLACES.length] ?? 'Mall food court',
          number: buyer.number,
          status: 'paid' as const,
          stage: 'completed' as const,
          sellerId: idOf.get(phone.sellerEmail) ?? null,
          sellerEmail: phone.sellerEmail,
          sellerName: phone.sellerName,
          sellerNumber: phone.sellerNumber,
          handoverCode: String(randomInt(0, 1_000_000)).padStart(6, '0'),
          // Demo people who are not one another (decision 038): their sales count in the guide.
          armsLength: true,
          // The fee as a sale today pays it (issue 30); the ledger books these sales at start.
          feeCents: feeCents(priceCents, DEFAULT_FEE_RULE),
          paidAt,
          holdExpiresAt: new Date(paidAt.getTime() + 7 * day),
          completedAt,
          createdAt: new Date(paidAt.getTime() - 15 * 60_000),
        })),
      )
      .returning({ id: orders.id });
    await tx.insert(paymentIntents).values(
      sales.map(({ buyer, completedAt, paidAt, intentId, priceCents }, k) => ({
        id: intentId,
        clientSecret: `${intentId}_secret_${randomBytes(16).toString('hex')}`,
        orderId: saleOrders[k]?.id ?? '',
        email: buyer.email,
        amountCents: priceCents,
        status: 'succeeded' as const,
        createdAt: paidAt,
        updatedAt: completedAt,
      })),
    );
    await tx.insert(payments).values(
      sales.map(({ buyer, completedAt, paidAt, intentId, priceCents, phone }, k) => ({
        transactionId: intentId,
        email: buyer.email,
        priceCents,
        orderId: saleOrders[k]?.id ?? '',
        productName: phone.modelName,
        productId: ids[LISTINGS.length + k] ?? '',
        money: 'captured' as const,
        settledAt: completedAt,
        createdAt: paidAt,
      })),
    );
  });
}
