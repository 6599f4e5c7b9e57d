/**
 * Close matches through the catalog's words (migration 0008, decision 025): a mistyped word
 * stands for the words of the catalog like it, kept by triggers as phones are listed and
 * renamed, and the search then runs on them as on words typed right.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { products, searchTerms } from '../../src/server/db/schema';
import { searchResultSchema } from '../../src/shared/api';
import { createProduct, createSeller } from '../helpers/factories';
import { buildTestApp, type TestApp } from '../helpers/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

async function search(query: string) {
  const res = await t.app.inject({ method: 'GET', url: `/api/search?${query}` });
  expect(res.statusCode, res.body).toBe(200);
  const body = searchResultSchema.parse(res.json());
  return { names: body.products.map((p) => p.modelName), closeMatches: body.closeMatches };
}

const termsLike = async (prefix: string) =>
  (await t.database.db.select().from(searchTerms))
    .map((r) => r.term)
    .filter((term) => term.startsWith(prefix))
    .sort();

describe('the catalog words', () => {
  it("keeps each word of a listed phone's model and description once, lower case", async () => {
    const seller = await createSeller(t.database.db);
    await createProduct(t.database.db, seller, {
      modelName: 'Zenfone Quasarix 10',
      description: 'QUASARIX, quasarix and a Zenfone box.',
    });
    expect(await termsLike('quasarix')).toEqual(['quasarix']);
    expect(await termsLike('zenfone')).toEqual(['zenfone']);
  });

  it('a phone listed a moment ago is found by a mistyped word at once', async () => {
    const seller = await createSeller(t.database.db);
    await createProduct(t.database.db, seller, { modelName: 'Pixelbrook Fold', description: 'x' });
    expect(await search('q=pixelbrok')).toEqual({ names: ['Pixelbrook Fold'], closeMatches: true });
    expect(await search('q=fold+pixlebrook')).toEqual({
      names: ['Pixelbrook Fold'],
      closeMatches: true,
    });
  });

  it('a renamed phone is found by its new name mistyped', async () => {
    const seller = await createSeller(t.database.db);
    const phone = await createProduct(t.database.db, seller, {
      modelName: 'Lumora One',
      description: 'y',
    });
    await t.database.db
      .update(products)
      .set({ modelName: 'Vantablix Two' })
      .where(eq(products.id, phone.id));
    expect(await search('q=vantablik')).toEqual({ names: ['Vantablix Two'], closeMatches: true });
  });

  it('a word typed whole stands for itself, not for a shorter word sharing its first letters', async () => {
    const seller = await createSeller(t.database.db);
    await createProduct(t.database.db, seller, {
      modelName: 'Moto Edge 40',
      description: 'Comes with its charger.',
    });
    // 'withdrawal' is like 'with' only as far as their first letters; no phone has it.
    expect((await search('q=withdrawal')).names).not.toContain('Moto Edge 40');
  });

  it("a mistyped word stands for the likest words only: 'glaxy' is a Galaxy, not glass", async () => {
    const seller = await createSeller(t.database.db);
    await createProduct(t.database.db, seller, { modelName: 'Galaxy Z9', description: 'Boxed.' });
    await createProduct(t.database.db, seller, {
      modelName: 'Oppo Find Q',
      description: 'A crack in the back glass.',
    });
    expect((await search('q=glaxy+z9')).names).toEqual(['Galaxy Z9']);
    expect((await search('q=glaxy')).names).not.toContain('Oppo Find Q');
  });

  it('a word of digits stays exact under close matches: a 12 does not find a 13', async () => {
    const seller = await createSeller(t.database.db);
    await createProduct(t.database.db, seller, { modelName: 'Nexora 13', description: 'z' });
    expect((await search('q=nexra+13')).names).toEqual(['Nexora 13']);
    expect((await search('q=nexra+12')).names).toEqual([]);
  });
});
