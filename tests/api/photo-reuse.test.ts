/**
 * A photo already used on another seller's listing (issue 34, decision 054): every photo the image
 * host stores is hashed, and findReusedPhotos finds a listing's photo that copies another seller's,
 * however it was resized, re-encoded, trimmed or brightened, while 1,000 different phone photos
 * match none of each other.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { photoHashes as photoHashesTable, products, users } from '../../src/server/db/schema';
import {
  detailDistance,
  hammingDistance,
  PHOTO_MATCH_MAX_DETAIL_DISTANCE,
  PHOTO_MATCH_MAX_DISTANCE,
  photoHashes,
} from '../../src/server/risk/photo-hash';
import { findReusedPhotos, recordPhotoHashes } from '../../src/server/risk/photo-match';
import { type Account, createAccount } from '../helpers/accounts';
import { createProduct, productValues } from '../helpers/factories';
import { uploadPhoto } from '../helpers/multipart';
import { copiesOf, syntheticPhoto } from '../helpers/synthetic-photos';
import { buildTestApp, type TestApp } from '../helpers/test-app';

let t: TestApp;
let owner: Account;
let copier: Account;
/** The owner's photo, as a phone's camera made it, and its URL once stored. */
let photo: Buffer;
let photoUrl: string;
let listingId: string;

const sellerRow = async (account: Account) => {
  const [row] = await t.database.db.select().from(users).where(eq(users.email, account.email));
  if (!row) throw new Error('no seller row');
  return row;
};

const upload = async (account: Account, bytes: Buffer): Promise<string> => {
  const res = await uploadPhoto(t.app, account.bearer, bytes);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.url;
};

beforeAll(async () => {
  t = await buildTestApp();
  [owner, copier] = await Promise.all([
    createAccount(t.app, 'seller'),
    createAccount(t.app, 'seller'),
  ]);
  photo = await syntheticPhoto(34);
  photoUrl = await upload(owner, photo);
  listingId = (
    await createProduct(t.database.db, await sellerRow(owner), {
      image: photoUrl,
      status: 'sold',
    })
  ).id;
});
afterAll(() => t?.close());

describe('reused photos', () => {
  it('keeps the perceptual hashes of a photo uploaded through the image host', async () => {
    const [row] = await t.database.db
      .select()
      .from(photoHashesTable)
      .where(eq(photoHashesTable.url, photoUrl));
    // Hashed from the 320 px variant the store encoded: the same picture as the upload, well
    // within the thresholds of the upload's own hashes.
    const upload = await photoHashes(photo);
    expect(row).toBeDefined();
    expect(hammingDistance(BigInt.asUintN(64, row?.hash ?? 0n), upload.hash)).toBeLessThanOrEqual(
      PHOTO_MATCH_MAX_DISTANCE / 2,
    );
    expect(detailDistance(row?.detail ?? '', upload.detail)).toBeLessThanOrEqual(
      PHOTO_MATCH_MAX_DETAIL_DISTANCE / 2,
    );
  });

  it('finds each copy another seller uploads: resized, re-encoded, trimmed and brightened', async () => {
    const copies = await copiesOf(photo);
    for (const [copy, bytes] of Object.entries(copies)) {
      const url = await upload(copier, bytes);
      expect(url, copy).not.toBe(photoUrl);
      const matches = await findReusedPhotos(t.database.db, {
        photos: [url],
        sellerEmail: copier.email,
      });
      expect(matches, copy).toEqual([
        {
          photo: url,
          matchedPhoto: photoUrl,
          matchedProductId: listingId,
          distance: expect.any(Number),
        },
      ]);
      expect(matches[0]?.distance, copy).toBeLessThanOrEqual(8);
    }
  }, 120_000);

  it('finds the very same URL on another seller’s listing, at distance 0, nearest first', async () => {
    const copy = await upload(copier, (await copiesOf(photo))['JPEG of quality 60'] as Buffer);
    const other = await upload(copier, await syntheticPhoto(35, 600));
    const matches = await findReusedPhotos(t.database.db, {
      photos: [other, copy, photoUrl],
      sellerEmail: copier.email,
    });
    expect(matches.map((m) => [m.photo, m.matchedPhoto, m.matchedProductId])).toEqual([
      [photoUrl, photoUrl, listingId],
      [copy, photoUrl, listingId],
    ]);
    expect(matches[0]?.distance).toBe(0);
    // A photo no store of ours hashed (another host's) still matches by its URL.
    const elsewhere = 'https://i.ibb.co/abc/phone.jpg';
    const theirs = await createProduct(t.database.db, await sellerRow(owner), { image: elsewhere });
    expect(
      await findReusedPhotos(t.database.db, { photos: [elsewhere], sellerEmail: copier.email }),
    ).toEqual([
      { photo: elsewhere, matchedPhoto: elsewhere, matchedProductId: theirs.id, distance: 0 },
    ]);
  }, 60_000);

  it('flags the copier, never the seller who showed the photo first; a withdrawn listing claims none', async () => {
    const first = await upload(owner, await syntheticPhoto(36));
    const theirs = await createProduct(t.database.db, await sellerRow(owner), { image: first });
    // The copier names the very same file on a listing of theirs, and a trimmed copy on another.
    const same = await createProduct(t.database.db, await sellerRow(copier), { image: first });
    const trimmed = await upload(
      copier,
      (await copiesOf(await syntheticPhoto(36)))['trimmed by 2 px on every edge'] as Buffer,
    );
    await createProduct(t.database.db, await sellerRow(copier), { image: trimmed });
    expect(
      await findReusedPhotos(t.database.db, {
        photos: [first],
        sellerEmail: copier.email,
        productId: same.id,
      }),
    ).toEqual([expect.objectContaining({ photo: first, matchedProductId: theirs.id })]);
    // The owner, editing their listing or listing the photo again, copies nobody.
    for (const productId of [theirs.id, undefined])
      expect(
        await findReusedPhotos(t.database.db, {
          photos: [first],
          sellerEmail: owner.email,
          ...(productId ? { productId } : {}),
        }),
      ).toEqual([]);
    // Uploaded early and shown only on a withdrawn listing, a photo is nobody's yet.
    const early = await upload(copier, await syntheticPhoto(37));
    await createProduct(t.database.db, await sellerRow(copier), {
      image: early,
      status: 'withdrawn',
    });
    const later = await upload(
      owner,
      (await copiesOf(await syntheticPhoto(37)))['JPEG of quality 60'] as Buffer,
    );
    expect(
      await findReusedPhotos(t.database.db, { photos: [later], sellerEmail: owner.email }),
    ).toEqual([]);
  }, 60_000);

  it('never counts the listing itself or the same seller’s other listings', async () => {
    const copy = await upload(owner, (await copiesOf(photo))['brightened by 20 %'] as Buffer);
    // The owner lists the same phone again with a brighter copy of the photo: their own.
    expect(
      await findReusedPhotos(t.database.db, { photos: [copy, photoUrl], sellerEmail: owner.email }),
    ).toEqual([]);
    // The copier's own listing of the copy is not "another listing" for itself…
    const copied = await createProduct(t.database.db, await sellerRow(copier), { image: copy });
    const ownListing = { photos: [copy], sellerEmail: copier.email, productId: copied.id };
    expect(
      (await findReusedPhotos(t.database.db, ownListing)).map((m) => m.matchedProductId),
    ).toEqual([listingId]);
    // …and once the owner's listing is deleted, nothing is left to match.
    await t.database.db.delete(products).where(eq(products.id, listingId));
    expect(await findReusedPhotos(t.database.db, ownListing)).toEqual([]);
    await t.database.db.insert(products).values({
      ...productValues(await sellerRow(owner), { image: photoUrl }),
      id: listingId,
    });
  }, 60_000);

  it('finds no match among 1,000 different phone photos, each on its own seller’s listing', async () => {
    const db = t.database.db;
    const count = 1000;
    const sellers = await db
      .insert(users)
      .values(
        Array.from({ length: count }, (_, i) => ({
          name: `Seller ${i}`,
          email: `many-photos-${i}-${listingId.slice(0, 8)}@test.example`,
          type: 'seller' as const,
        })),
      )
      .returning();
    const urls = Array.from(
      { length: count },
      (_, i) => `/images/${(0xf000_0000 + i).toString(16).padStart(32, '0')}-640.webp`,
    );
    for (let i = 0; i < count; i++) {
      // Small (300 wide) to keep the test short: the hash sees 64×64 of any size alike.
      await recordPhotoHashes(db, urls[i] as string, await syntheticPhoto(1_000 + i, 300));
    }
    await db
      .insert(products)
      .values(sellers.map((seller, i) => productValues(seller, { image: urls[i] as string })));
    const falseMatches = [];
    for (let i = 0; i < count; i++) {
      const seller = sellers[i] as (typeof sellers)[number];
      falseMatches.push(
        ...(await findReusedPhotos(db, { photos: [urls[i] as string], sellerEmail: seller.email })),
      );
    }
    expect(falseMatches).toEqual([]);
  }, 300_000);
});
