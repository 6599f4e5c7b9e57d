/** Test data written straight to the database; every call makes fresh, unique rows. */
import { randomUUID } from 'node:crypto';
import type { Db } from '../../src/server/db/client';
import { advertisements, type orders, products, users } from '../../src/server/db/schema';

type UserRow = typeof users.$inferSelect;
type ProductRow = typeof products.$inferSelect;

const unique = () => randomUUID().slice(0, 8);

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
