/** The storefront the browser tests see: known phones in four brands, none in Xiaomi ('05'). */
import { randomUUID } from 'node:crypto';
import type { IdentityProvider } from '../../src/server/auth/identity-provider';
import type { Db } from '../../src/server/db/client';
import { orders, users } from '../../src/server/db/schema';
import type { ImageStore } from '../../src/server/images/image-store';
import { phoneSvg } from '../../src/server/seed/phone-art';
import { advertise, createProduct, createSeller, orderValues } from '../helpers/factories';

/** Where the local OpenID provider listens (runs side by side set E2E_OIDC_PORT apart). */
export const OIDC_PORT = Number(process.env.E2E_OIDC_PORT ?? 4400);
/** Where the test mailbox answers what the server's mail reached its SMTP server (tests/e2e/mailbox.ts). */
export const MAILBOX_PORT = Number(process.env.E2E_MAILBOX_PORT ?? 4401);

export const FIXTURE = {
  /** Every fixture account signs in with this password. */
  password: 'Fixture-Pass1!',
  admin: { name: 'Ada Admin', email: 'admin@e2e.example' },
  buyer: { name: 'Bea Buyer', email: 'bea@e2e.example' },
  verifiedSeller: { name: 'Vera Verified', email: 'vera@e2e.example' },
  plainSeller: { name: 'Paul Plain', email: 'paul@e2e.example' },
  featured: {
    modelName: 'iPhone 14 Pro',
    description: 'Always-on display, no scratches, box included.',
    ram: '6 GB',
    storage: '1 GTB',
    color: 'Gold',
    battery: 3200,
    resellPrice: 749,
    originalPrice: 1099,
    location: 'Seattle, WA',
    timeUsed: 12,
    postedAt: new Date('2026-10-05T12:00:00Z'),
    /** The colours of its second and third photos (the cover is `color`). */
    photoColors: ['Silver', 'Purple'],
  },
  sold: { modelName: 'iPhone 12 mini' },
  plain: { modelName: 'iPhone SE (2022)' },
  samsung: { modelName: 'Galaxy S22' },
  advertised: ['Galaxy S22', 'Oppo Reno 10'],
  /** Past sales of the featured model: days ago, and the prices of that day (dollars). */
  pastSales: [
    [300, [899, 929]],
    [260, [879, 905]],
    [220, [849, 869]],
    [180, [829, 845]],
    [140, [799, 819]],
    [100, [769, 789]],
  ],
} as const;

export async function seedFixture(
  db: Db,
  images: ImageStore,
  identity: IdentityProvider,
): Promise<void> {
  for (const account of [
    FIXTURE.admin,
    FIXTURE.buyer,
    FIXTURE.verifiedSeller,
    FIXTURE.plainSeller,
  ]) {
    await identity.createIdentity({ ...account, password: FIXTURE.password });
  }
  await db.insert(users).values([
    // Admin by its record, as the operator's `npm run admin -- grant` makes it.
    { ...FIXTURE.admin, type: 'user', isAdmin: true },
    { ...FIXTURE.buyer, type: 'user' },
  ]);
  const image = async (color: string, code: '01' | '02' | '03' | '04') =>
    (await images.save(Buffer.from(phoneSvg(code, color)))).url;
  const vera = await createSeller(db, { ...FIXTURE.verifiedSeller, userStatus: 'verified' });
  const paul = await createSeller(db, FIXTURE.plainSeller);
  const f = FIXTURE.featured;
  // Three photos, the cover first: the phone's page shows them in its gallery.
  const featuredPhotos = [
    await image(f.color, '01'),
    await image(f.photoColors[0], '01'),
    await image(f.photoColors[1], '01'),
  ];

  await createProduct(db, paul, {
    categoryId: '01',
    modelName: FIXTURE.sold.modelName,
    status: 'sold',
    image: await image('Red', '01'),
  });
  await createProduct(db, paul, {
    categoryId: '01',
    modelName: FIXTURE.plain.modelName,
    image: await image('White', '01'),
  });
  await createProduct(db, vera, {
    categoryId: '01',
    modelName: f.modelName,
    description: f.description,
    ram: f.ram,
    storage: f.storage,
    color: f.color,
    battery: f.battery,
    resellPriceCents: f.resellPrice * 100,
    originalPriceCents: f.originalPrice * 100,
    location: f.location,
    timeUsed: f.timeUsed,
    createdAt: f.postedAt,
    image: featuredPhotos[0],
    photos: featuredPhotos,
  });
  const samsung = await createProduct(db, vera, {
    categoryId: '02',
    modelName: FIXTURE.samsung.modelName,
    image: await image('Black', '02'),
  });
  await createProduct(db, paul, {
    categoryId: '03',
    modelName: 'Infinix Note 30',
    image: await image('Blue', '03'),
  });
  const oppo = await createProduct(db, paul, {
    categoryId: '04',
    modelName: 'Oppo Reno 10',
    image: await image('Silver', '04'),
  });
  const soldOppo = await createProduct(db, paul, {
    categoryId: '04',
    modelName: 'Oppo A57',
    status: 'sold',
    image: await image('Black', '04'),
  });
  await advertise(db, samsung);
  await advertise(db, oppo);
  await advertise(db, soldOppo);
  await db.insert(orders).values(pastSalesOf(f.modelName, f.storage));
}

/**
 * Completed sales of phones like the featured one (issue 33): two a week in six weeks, 100 to
 * 300 days old, by six sellers to six buyers, all accounts and phones since deleted (a sale
 * outlives both), so nobody's lists or money change. Older than the guide's 90 days: no card
 * gets a price note; its page draws the model's price history.
 */
function pastSalesOf(modelName: string, storage: string) {
  const sellers = Array.from({ length: 6 }, () => randomUUID());
  return FIXTURE.pastSales.flatMap(([daysAgo, prices], week) =>
    prices.map((price, k) => {
      const at = new Date(Date.now() - daysAgo * 24 * 60 * 60 * 1000);
      const buyer = { id: randomUUID(), email: `past-buyer-${week}-${k}@e2e.example` };
      return orderValues(buyer, randomUUID(), {
        productName: modelName,
        storage,
        condition: 'Good',
        priceCents: price * 100,
        status: 'paid',
        stage: 'completed',
        sellerId: sellers[(week + k) % sellers.length] ?? null,
        armsLength: true,
        paidAt: new Date(at.getTime() - 60 * 60 * 1000),
        completedAt: at,
        createdAt: new Date(at.getTime() - 2 * 60 * 60 * 1000),
      });
    }),
  );
}
