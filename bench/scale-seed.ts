/**
 * The scale seeder: tops the catalog up to N products with one `INSERT … SELECT
 * generate_series` per batch, through the app's own database client, so a million rows take
 * seconds rather than the minutes of row-by-row inserts. One product in a hundred is advertised.
 *
 * The phones look like a real catalog's, so that a search measures what it would meet: real
 * model names of each brand, descriptions made of a few common phrases (and a rare word in one
 * phone of a thousand), twenty cities, prices spread from $100 to $1,600, a third of the phones
 * sold, and two sellers, one verified.
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
export const SCALE_SELLER_UNVERIFIED = {
  name: 'Scale Seller Two',
  email: 'scale-seller-2@bench.example',
};
/** The word only one phone in a thousand's description has (a search for a rare thing). */
export const SCALE_RARE_WORD = 'waterproof';
const BATCH = 250_000;

/** Models of each brand, in CATEGORY_CODES order. */
const MODELS = [
  [
    'iPhone 11',
    'iPhone 12',
    'iPhone 12 mini',
    'iPhone 13',
    'iPhone 13 Pro',
    'iPhone 13 Pro Max',
    'iPhone 14',
    'iPhone 14 Pro',
    'iPhone 15',
    'iPhone 15 Pro Max',
    'iPhone SE',
  ],
  [
    'Galaxy S21',
    'Galaxy S21 Ultra',
    'Galaxy S22',
    'Galaxy S23',
    'Galaxy S23 Ultra',
    'Galaxy A52',
    'Galaxy A54',
    'Galaxy Note 20',
    'Galaxy Z Flip 4',
  ],
  ['Infinix Hot 30', 'Infinix Note 30', 'Infinix Zero 30', 'Infinix Smart 7'],
  ['Oppo Reno 8', 'Oppo Reno 10', 'Oppo Find X5', 'Oppo A78'],
  ['Redmi Note 12', 'Redmi Note 13 Pro', 'Xiaomi 13', 'Xiaomi 13T', 'Poco F5'],
];
const PHRASES = [
  'Screen without scratches.',
  'Battery replaced last year.',
  'Comes with the original box and charger.',
  'Small dent on the corner.',
  'Used with a case since day one.',
  'Unlocked for every carrier.',
  'Face ID works perfectly.',
  'Minor wear on the back.',
];
const CITIES = [
  'Austin, TX',
  'Seattle, WA',
  'Denver, CO',
  'Boston, MA',
  'Chicago, IL',
  'Miami, FL',
  'Portland, OR',
  'Atlanta, GA',
  'Phoenix, AZ',
  'Dallas, TX',
  'San Diego, CA',
  'New York, NY',
  'Detroit, MI',
  'Nashville, TN',
  'Columbus, OH',
  'Raleigh, NC',
  'Madison, WI',
  'Tucson, AZ',
  'Omaha, NE',
  'Salem, OR',
];
const COLORS = ['Blue', 'Black', 'White', 'Green', 'Purple', 'Graphite', 'Silver', 'Gold'];

const pgArray = (values: readonly string[]) =>
  sql.raw(`ARRAY[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(',')}]::text[]`);
const pgNested = (values: readonly (readonly string[])[]) => {
  const width = Math.max(...values.map((v) => v.length));
  // A 2-D array needs rows of one length: each brand's list repeats to the longest.
  const rows = values.map((v) => Array.from({ length: width }, (_, i) => v[i % v.length] ?? ''));
  return sql.raw(
    `ARRAY[${rows.map((r) => `ARRAY[${r.map((m) => `'${m}'`).join(',')}]`).join(',')}]::text[][]`,
  );
};

async function countProducts(db: Db): Promise<number> {
  // node-postgres and PGlite both answer `{ rows }`.
  const result = (await db.execute(sql`select count(*)::int as n from products`)) as unknown as {
    rows: { n: number }[];
  };
  return result.rows[0]?.n ?? 0;
}

/**
 * Adds products until there are `total`; answers how many there are now. `soldPercent`: the share
 * of them sold, in percent (a third when not given).
 */
export async function seedScale(
  db: Db,
  total: number,
  { soldPercent }: { soldPercent?: number } = {},
): Promise<number> {
  // Picked by another hash digit than the filters use, so the sold ones are like the rest.
  const sold =
    soldPercent === undefined
      ? sql.raw('h % 3 = 0')
      : sql.raw(`(h / 23) % 100 < ${Math.round(soldPercent)}`);
  await db
    .insert(users)
    .values([
      { ...SCALE_SELLER, type: 'seller', userStatus: 'verified' },
      { ...SCALE_SELLER_UNVERIFIED, type: 'seller' },
    ])
    .onConflictDoNothing();
  const width = Math.max(...MODELS.map((m) => m.length));
  let have = await countProducts(db);
  while (have < total) {
    const from = have + 1;
    const to = Math.min(total, have + BATCH);
    // h: a hash of g, so neighbouring rows differ in everything a filter looks at.
    await db.execute(sql`
      insert into products (category_id, model_name, image, original_price_cents,
        resell_price_cents, location, description, time_used, condition, ram, storage, color,
        battery, seller_name, seller_number, seller_email, photos, status)
      select (${pgArray(CATEGORY_CODES)})[1 + g % ${CATEGORY_CODES.length}],
        (${pgNested(MODELS)})[1 + g % ${CATEGORY_CODES.length}][1 + (h / 7) % ${width}],
        '/images/0123456789abcdef0123456789abcdef-640.webp',
        20000 + h % 180000,
        10000 + h % 150000,
        (${pgArray(CITIES)})[1 + (h / 3) % ${CITIES.length}],
        (${pgArray(PHRASES)})[1 + h % ${PHRASES.length}] || ' ' ||
          (${pgArray(PHRASES)})[1 + (h / 11) % ${PHRASES.length}] ||
          case when g % 1000 = 7 then ${` Fully ${SCALE_RARE_WORD}.`} else '' end,
        1 + h % 36,
        (${pgArray(CONDITION_OPTIONS)})[1 + (h / 5) % ${CONDITION_OPTIONS.length}],
        (${pgArray(RAM_OPTIONS)})[1 + (h / 13) % ${RAM_OPTIONS.length}],
        (${pgArray(STORAGE_OPTIONS)})[1 + (h / 17) % ${STORAGE_OPTIONS.length}],
        (${pgArray(COLORS)})[1 + (h / 19) % ${COLORS.length}],
        3000 + h % 2500,
        case when g % 2 = 0 then ${SCALE_SELLER.name} else ${SCALE_SELLER_UNVERIFIED.name} end,
        '+1 512 555 0100',
        case when g % 2 = 0 then ${SCALE_SELLER.email} else ${SCALE_SELLER_UNVERIFIED.email} end,
        ARRAY['/images/0123456789abcdef0123456789abcdef-640.webp'],
        case when ${sold} then 'sold' else 'available' end
      from generate_series(${from}::int, ${to}::int) as g,
        lateral (select (g::bigint * 2654435761 % 2147483647)::int as h) as hashed`);
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
