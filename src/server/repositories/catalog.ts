/** The brands (categories of the spec). */
import { asc } from 'drizzle-orm';
import type { Category } from '../../shared/entities';
import type { Db } from '../db/client';
import { categories } from '../db/schema';

export async function listCategories(db: Db): Promise<Category[]> {
  const rows = await db.select().from(categories).orderBy(asc(categories.categoryId));
  return rows.map((c) => ({
    _id: c.id,
    name: c.name,
    categoryId: c.categoryId as Category['categoryId'],
  }));
}
