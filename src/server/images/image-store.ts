/**
 * The image host. Our stores decide the type from the bytes, strip every piece of metadata (EXIF,
 * GPS), fix orientation and keep WebP variants under content-hash names; they differ only in
 * where a variant is kept: a directory here, a bucket in `s3-image-store.ts`.
 */
import { createHash, randomUUID } from 'node:crypto';
import { access, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { IMAGE_DEFAULT_WIDTH, IMAGE_WIDTHS } from '../../shared/constants';

export interface ImageStore {
  /**
   * Stores an image and answers the URL of its default-size variant, and its smallest variant's
   * bytes when it encoded that variant now (a cheap picture to hash, decision 054).
   */
  save(bytes: Buffer): Promise<{ url: string; smallest?: Buffer }>;
  /** The URL `save` answers for these bytes, before (or without) storing them. */
  urlOf(bytes: Buffer): string;
  /** Whether `url` is one of this store's images (others are hosts it cannot look into). */
  owns(url: string): boolean;
  /** Removes every variant of the image of `url`; nothing happens when there is none. */
  remove(url: string): Promise<void>;
}

export class InvalidImageError extends Error {}

export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
/** About 50 megapixels: any real phone photo, never a decompression bomb. */
export const MAX_IMAGE_PIXELS = 50_000_000;
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'svg']);

export const IMAGES_URL_PREFIX = '/images/';

/**
 * The check `save` makes of every upload, by the bytes and never by a name: a JPEG, PNG or WebP
 * (SVG only when allowed, our seed's) of at most 10 MB and MAX_IMAGE_PIXELS. Answers the image
 * ready to encode; throws InvalidImageError, in words a seller reads, when it is none. Bulk
 * listing checks each photo of a ZIP with it before storing it (decision 057).
 */
export async function openImage(
  bytes: Buffer,
  options: { allowSvg?: boolean } = {},
): Promise<Sharp> {
  if (bytes.length === 0) throw new InvalidImageError('The image is empty.');
  if (bytes.length > MAX_IMAGE_BYTES)
    throw new InvalidImageError('The image is larger than 10 MB.');
  const input = sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' });
  let format: string | undefined;
  try {
    format = (await input.metadata()).format;
  } catch (err) {
    if (err instanceof Error && /pixel limit/i.test(err.message)) {
      throw new InvalidImageError('The image has too many pixels to process.');
    }
    throw new InvalidImageError('The file is not a JPEG, PNG or WebP image.');
  }
  if (!format || !ACCEPTED_FORMATS.has(format) || (format === 'svg' && !options.allowSvg)) {
    throw new InvalidImageError('The file is not a JPEG, PNG or WebP image.');
  }
  return input;
}

/** The cache header of a variant: its name is its content, so it never changes under its URL. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The validation and encoding of every store of ours, written once: a subclass says only how a
 * variant is kept, found and removed under its name (`<hash>-<width>.webp`).
 */
export abstract class VariantImageStore implements ImageStore {
  constructor(
    /** SVG is accepted only from our own seed, never from uploads. */
    private readonly options: { allowSvg?: boolean } = {},
  ) {}

  /** Whether the variant of this name is kept. */
  abstract hasVariant(name: string): Promise<boolean>;
  /** Keeps an encoded variant under its name, whole or not at all. */
  abstract putVariant(name: string, bytes: Buffer): Promise<void>;
  /** Removes the variant of this name; nothing happens when there is none. */
  abstract removeVariant(name: string): Promise<void>;

  async save(bytes: Buffer): Promise<{ url: string; smallest?: Buffer }> {
    const input = await openImage(bytes, this.options);
    const hash = hashOf(bytes);
    const names = IMAGE_WIDTHS.map((width) => ({ width, name: variantName(hash, width) }));
    const kept = await Promise.all(names.map(({ name }) => this.hasVariant(name)));
    const missing = names.filter((_, i) => !kept[i]);
    // Every variant is encoded before any is written, so a photo that fails part-way (damaged,
    // truncated) leaves nothing behind.
    let outputs: Buffer[];
    try {
      outputs = await Promise.all(missing.map(({ width }) => encode(input, width)));
    } catch {
      // The decoder's words ('VipsJpeg: premature end…') mean nothing to a seller.
      throw new InvalidImageError('The image is damaged or has too many pixels to process.');
    }
    await Promise.all(missing.map(({ name }, i) => this.putVariant(name, outputs[i] as Buffer)));
    const smallest = missing.findIndex(({ width }) => width === IMAGE_WIDTHS[0]);
    return {
      url: variantUrl(hash, IMAGE_DEFAULT_WIDTH),
      ...(smallest >= 0 ? { smallest: outputs[smallest] as Buffer } : {}),
    };
  }

  urlOf(bytes: Buffer): string {
    return variantUrl(hashOf(bytes), IMAGE_DEFAULT_WIDTH);
  }

  owns(url: string): boolean {
    return hashOfUrl(url) !== null;
  }

  async remove(url: string): Promise<void> {
    const hash = hashOfUrl(url);
    if (hash === null) return;
    await Promise.all(IMAGE_WIDTHS.map((width) => this.removeVariant(variantName(hash, width))));
  }
}

/** The variants in a directory (DATA_DIR/uploads): one server's own disk. */
export class LocalImageStore extends VariantImageStore {
  constructor(
    readonly dir: string,
    options: { allowSvg?: boolean } = {},
  ) {
    super(options);
  }

  async hasVariant(name: string): Promise<boolean> {
    try {
      await access(path.join(this.dir, name));
      return true;
    } catch {
      return false;
    }
  }

  async putVariant(name: string, bytes: Buffer): Promise<void> {
    const file = path.join(this.dir, name);
    await mkdir(this.dir, { recursive: true });
    // Unique, so two uploads of the same photo at once never write one temporary file.
    const temp = `${file}.${randomUUID()}.tmp`;
    await writeFile(temp, bytes);
    await rename(temp, file);
  }

  async removeVariant(name: string): Promise<void> {
    await rm(path.join(this.dir, name), { force: true });
  }
}

const hashOf = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex').slice(0, 32);

const OWN_URL = /^\/images\/([0-9a-f]{32})-\d+\.webp$/;
/** The content hash in one of our image URLs (any of its widths), or null for another host's. */
const hashOfUrl = (url: string): string | null => OWN_URL.exec(url)?.[1] ?? null;

const VARIANT_NAME = new RegExp(`^[0-9a-f]{32}-(${IMAGE_WIDTHS.join('|')})\\.webp$`);
/**
 * Whether `name` is one a store of ours could have written: anything else (a path, another
 * width, a leftover temporary file) is nobody's photo, and is never looked up.
 */
export const isVariantName = (name: string): boolean => VARIANT_NAME.test(name);

/** One WebP variant: upright, at most `width` wide, re-encoded so nothing of the upload survives but pixels. */
const encode = (input: Sharp, width: number): Promise<Buffer> =>
  input
    .clone()
    .rotate()
    .resize({ width, withoutEnlargement: true })
    .webp({ quality: 72, effort: 4 })
    .toBuffer();

const variantName = (hash: string, width: number) => `${hash}-${width}.webp`;
const variantUrl = (hash: string, width: number) =>
  `${IMAGES_URL_PREFIX}${variantName(hash, width)}`;
