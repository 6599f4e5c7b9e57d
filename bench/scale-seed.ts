/**
 * The scale seeder: tops the catalog up to N products with one `INSERT … SELECT
 * generate_series` per batch, through the app's own database client, so a million rows take
 * seconds rather than the minutes of row-by-row inserts. One product in a hundred is advertised.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../src/server/db/client';
import { users } from '../src/server/db/schema';
import {
  CATEGORY_CODES,
  CONDITION_OPTIONS,
  RAM_OPTIONS,
  STORAGE_OPTIONS,
} from '../src/shared/constants';

export const SCALE_SELLER = { name: 'Scale Seller', email: 'scale-seller@bench.example' };
const BATCH = 250_000;

const pgArray = (values: readonly string[]) =>
  sql.raw(`ARRAY[${values.map((v) => `'${v}'`).join(',')}]::text[]`);

async function countProducts(db: Db): Promise<number> {
  // node-postgres and PGlite both answer `{ rows }`.
  const result = (await db.execute(sql`select count(*)::int as n from products`)) as unknown as {
    rows: { n: number }[];
  };
  return result.rows[0]?.n ?? 0;
}

/** Adds products until there are `total`; answers how many there are now. */
export async function seedScale(db: Db, total: number): Promise<number> {
  await db
    .insert(users)
    .values({ ...SCALE_SELLER, type: 'seller', userStatus: 'verified' })
    .onConflictDoNothing();
  let have = await countProducts(db);
  while (have < total) {
    const from = have + 1;
    const to = Math.min(total, have + BATCH);
    await db.execute(sql`
      insert into products (category_id, model_name, image, original_price_cents,
        resell_price_cents, location, description, time_used, condition, ram, storage, color,
        battery, seller_name, seller_number, seller_email)
      select (${pgArray(CATEGORY_CODES)})[1 + g % ${CATEGORY_CODES.length}],
        'Scale Phone ' || g,
        '/images/0123456789abcdef0123456789abcdef-640.webp',
        80000 + (g % 50) * 1000,
        30000 + (g % 40) * 1000,
        'Austin, TX',
        'A well kept phone with its box and charger, used with a case since the first day.',
        1 + g % 36,
        (${pgArray(CONDITION_OPTIONS)})[1 + g % ${CONDITION_OPTIONS.length}],
        (${pgArray(RAM_OPTIONS)})[1 + g % ${RAM_OPTIONS.length}],
        (${pgArray(STORAGE_OPTIONS)})[1 + g % ${STORAGE_OPTIONS.length}],
        'Blue', 3000 + g % 2000,
        ${SCALE_SELLER.name}, '+1 512 555 0100', ${SCALE_SELLER.email}
      from generate_series(${from}::int, ${to}::int) as g`);
    await db.execute(sql`
      insert into advertisements (product_id)
      select id from products where seq >= (select max(seq) from products) - ${to - from}
        and seq % 100 = 0
      on conflict do nothing`);
    have = to;
  }
  // Fresh statistics, as autovacuum would have by the time a real catalog got this big.
  await db.execute(sql`analyze`);
  return countProducts(db);
}
