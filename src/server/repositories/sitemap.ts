/**
 * What the sitemap lists: the brands, every unsold phone and every seller with a phone for sale.
 * Phones and sellers go into files by ranges of `seq` (file N holds `seq` in
 * ((N-1)·size, N·size]), so each file is one index range scan at any table size and never an
 * OFFSET, and a file holds at most `size` URLs. The index names only the files that list
 * something, each found with one index probe.
 */
import { and, asc, eq, exists, gt, lte, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { categories, products, users } from '../db/schema';
import { newestFirst, oldestFirst } from './page';
import { qualified } from './products';

export type SitemapEntry = { id: string; lastmod: Date };
export type SitemapFile = { file: number; lastmod: Date | null };

/** `seq` of file `file` (from 1) of `size`: above `from`, at most `to`. */
const rangeOf = (file: number, size: number) => ({ from: (file - 1) * size, to: file * size });
const fileOf = (seq: number, size: number) => Math.ceil(seq / size);

const forSale = eq(products.status, 'available');
const hasPhoneForSale = exists(
  sql`(select 1 from ${products} where ${products.sellerEmail} = ${qualified(users.email)} and ${forSale})`,
);
const sellerWithPhones = and(eq(users.type, 'seller'), hasPhoneForSale);

/** The files of unsold phones, each with the time its newest phone was posted. */
export async function productFiles(db: Db, size: number): Promise<SitemapFile[]> {
  const files: SitemapFile[] = [];
  let after = 0;
  for (;;) {
    const [first] = await db
      .select({ seq: products.seq })
      .from(products)
      .where(and(forSale, gt(products.seq, after)))
      .orderBy(oldestFirst(products.seq))
      .limit(1);
    if (!first) return files;
    const file = fileOf(first.seq, size);
    const { to } = rangeOf(file, size);
    const [newest] = await db
      .select({ createdAt: products.createdAt })
      .from(products)
      .where(and(forSale, lte(products.seq, to)))
      .orderBy(newestFirst(products.seq))
      .limit(1);
    files.push({ file, lastmod: newest?.createdAt ?? null });
    after = to;
  }
}

/** The unsold phones of file `file`, oldest first. */
export async function productEntries(db: Db, file: number, size: number): Promise<SitemapEntry[]> {
  const { from, to } = rangeOf(file, size);
  return db
    .select({ id: products.id, lastmod: products.createdAt })
    .from(products)
    .where(and(forSale, gt(products.seq, from), lte(products.seq, to)))
    .orderBy(oldestFirst(products.seq));
}

/** The files of sellers with a phone for sale. */
export async function sellerFiles(db: Db, size: number): Promise<SitemapFile[]> {
  const files: SitemapFile[] = [];
  let after = 0;
  for (;;) {
    const [first] = await db
      .select({ seq: users.seq })
      .from(users)
      .where(and(sellerWithPhones, gt(users.seq, after)))
      .orderBy(oldestFirst(users.seq))
      .limit(1);
    if (!first) return files;
    const file = fileOf(first.seq, size);
    files.push({ file, lastmod: null });
    after = rangeOf(file, size).to;
  }
}

/** The sellers of file `file` with a phone for sale, each with the time of their newest one. */
export async function sellerEntries(db: Db, file: number, size: number): Promise<SitemapEntry[]> {
  const { from, to } = rangeOf(file, size);
  const newestPhone = sql`(select ${products.createdAt} from ${products} where ${products.sellerEmail} = ${qualified(users.email)} and ${forSale} order by ${newestFirst(products.seq)} limit 1)`;
  return db
    .select({ id: users.id, lastmod: newestPhone.mapWith(products.createdAt) })
    .from(users)
    .where(and(sellerWithPhones, gt(users.seq, from), lte(users.seq, to)))
    .orderBy(oldestFirst(users.seq));
}

/** Each brand with the time its newest phone was posted (null for a brand with none). */
export async function brandsLastmod(
  db: Db,
): Promise<{ categoryId: string; lastmod: Date | null }[]> {
  const newest = sql`(select ${products.createdAt} from ${products} where ${products.categoryId} = ${qualified(categories.categoryId)} order by ${newestFirst(products.seq)} limit 1)`;
  return db
    .select({
      categoryId: categories.categoryId,
      lastmod: newest.mapWith(products.createdAt) as SQL<Date | null>,
    })
    .from(categories)
    .orderBy(asc(categories.categoryId));
}
