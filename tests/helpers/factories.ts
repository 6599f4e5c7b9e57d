/** Test data written straight to the database; every call makes fresh, unique rows. */
import { randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../src/server/db/client';
import { advertisements, orders, products, users } from '../../src/server/db/schema';

type UserRow = typeof users.$inferSelect;
type ProductRow = typeof products.$inferSelect;

/**
 * Eight random letters: names made of them never hold seven digits in a row, which the contact
 * mask would hide as a phone number wherever others read them (issue 29).
 */
export const uniqueWord = (): string =>
  Array.from(randomBytes(8), (b) => String.fromCharCode(97 + (b % 26))).join('');
const unique = uniqueWord;

/** 14 digits and their Luhn check digit: an IMEI that passes the check. */
export function withCheckDigit(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    // From the right of the 14 digits, every first, third… digit is doubled.
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return `${body}${(10 - (sum % 10)) % 10}`;
}

/** A valid IMEI no other test makes (random digits). */
export const uniqueImei = (): string =>
  withCheckDigit(Array.from(randomBytes(14), (b) => String(b % 10)).join(''));

export async function createSeller(
  db: Db,
  overrides: Partial<typeof users.$inferInsert> = {},
): Promise<UserRow> {
  const id = unique();
  const [row] = await db
    .insert(users)
    .values({
      name: `Seller ${id}`,
      email: `seller-${id}@test.example`,
      type: 'seller',
      ...overrides,
    })
    .returning();
  if (!row) throw new Error('seller not created');
  return row;
}

export function productValues(
  seller: UserRow,
  overrides: Partial<typeof products.$inferInsert> = {},
): typeof products.$inferInsert {
  return {
    categoryId: '01',
    modelName: `Phone ${unique()}`,
    image: '/images/0123456789abcdef0123456789abcdef-640.webp',
    originalPriceCents: 79_900,
    resellPriceCents: 45_050,
    location: 'Austin, TX',
    description: 'A well kept phone.',
    timeUsed: 12,
    condition: 'Good',
    ram: '8 GB',
    storage: '128 GB',
    color: 'Blue',
    battery: 4000,
    sellerName: seller.name,
    sellerNumber: '+1 512 555 0100',
    sellerEmail: seller.email,
    ...overrides,
    // One photo, the cover, unless the test gives its own list.
    photos: overrides.photos ?? [
      overrides.image ?? '/images/0123456789abcdef0123456789abcdef-640.webp',
    ],
  };
}

export async function createProduct(
  db: Db,
  seller: UserRow,
  overrides: Partial<typeof products.$inferInsert> = {},
): Promise<ProductRow> {
  const [row] = await db.insert(products).values(productValues(seller, overrides)).returning();
  if (!row) throw new Error('product not created');
  return row;
}

export async function advertise(db: Db, product: ProductRow) {
  const [row] = await db.insert(advertisements).values({ productId: product.id }).returning();
  if (!row) throw new Error('advertisement not created');
  return row;
}

/** An order row of the buyer's account for `productId`, unpaid unless overridden. */
export const orderValues = (
  buyer: { id: string; email: string },
  productId: string,
  overrides: Partial<typeof orders.$inferInsert> = {},
): typeof orders.$inferInsert => ({
  buyerId: buyer.id,
  email: buyer.email,
  userName: 'Test Buyer',
  productId,
  productName: 'Phone',
  image: '/images/0123456789abcdef0123456789abcdef-640.webp',
  priceCents: 1000,
  location: 'Cafe on Main St',
  number: '+1 512 555 0111',
  ...overrides,
});

/**
 * A sale of `product` paid and handed over `daysAgo` days ago at `priceCents` (what the price
 * guide counts), or ended in `stage` (cancelled, refunded…) instead. The phone is marked sold
 * when the sale has it, as the sale process leaves it. Each sale has a buyer of its own, not
 * related to the seller (`armsLength`) unless `related`.
 */
export async function createSale(
  db: Db,
  product: ProductRow,
  {
    priceCents = product.resellPriceCents,
    daysAgo = 1,
    stage = 'completed',
    related = false,
  }: {
    priceCents?: number;
    daysAgo?: number;
    stage?: 'completed' | 'cancelled' | 'refunded' | 'disputed' | 'paid';
    related?: boolean;
  } = {},
) {
  const at = new Date(Date.now() - daysAgo * 24 * 60 * 60 * 1000);
  const buyer = { id: randomUUID(), email: `buyer-${unique()}@test.example` };
  const [seller] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, product.sellerEmail));
  const handedOver = stage === 'completed' || stage === 'disputed' || stage === 'refunded';
  const [row] = await db
    .insert(orders)
    .values(
      orderValues(buyer, product.id, {
        productName: product.modelName,
        storage: product.storage,
        condition: product.condition,
        priceCents,
        status: 'paid',
        stage,
        sellerId: seller?.id ?? null,
        sellerEmail: product.sellerEmail,
        sellerName: product.sellerName,
        sellerNumber: product.sellerNumber,
        armsLength: handedOver ? !related : null,
        handoverCode: '123456',
        paidAt: new Date(at.getTime() - 60 * 60 * 1000),
        completedAt: stage === 'completed' || stage === 'disputed' ? at : null,
        endedAt: stage === 'cancelled' || stage === 'refunded' ? at : null,
        createdAt: new Date(at.getTime() - 2 * 60 * 60 * 1000),
      }),
    )
    .returning();
  if (!row) throw new Error('sale not created');
  if (stage !== 'cancelled')
    await db.update(products).set({ status: 'sold' }).where(eq(products.id, product.id));
  return row;
}

/** The body of `PUT /api/products/:id` that keeps a phone as it is but for its resale price. */
export const editOf = (product: ProductRow, resellPrice: number) => ({
  categoryId: product.categoryId,
  modelName: product.modelName,
  originalPrice: product.originalPriceCents / 100,
  resellPrice,
  location: product.location,
  description: product.description,
  timeUsed: product.timeUsed,
  condition: product.condition,
  sellerNumber: product.sellerNumber,
  specificatons: {
    ram: product.ram,
    storage: product.storage,
    color: product.color,
    battery: product.battery,
  },
});
