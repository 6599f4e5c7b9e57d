/**
 * Bulk listing's ZIP of photos (decision 057). yauzl reads the central directory first and an
 * entry at a time; names are ours to judge, so a name is never used to build a path and nothing
 * is written here: a photo's bytes go to `take` (the image store's `save`) or nowhere. Only the
 * photos rows name are unpacked, one at a time, each bounded before and while it unpacks, so a
 * hostile ZIP costs little; a bad photo fails the rows naming it, not the file.
 */
import { isUtf8 } from 'node:buffer';
import { stat } from 'node:fs/promises';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import {
  BULK_UNPACKED_MAX_BYTES,
  BULK_ZIP_MAX_BYTES,
  BULK_ZIP_MAX_ENTRIES,
} from '../../shared/bulk';
import { LISTING_LABELS } from '../../shared/listing-input';
import { InvalidImageError, MAX_IMAGE_BYTES, openImage } from '../images/image-store';
import { photoKey } from './csv-rows';

/** A photo a row names: stored (its URL), or why it cannot be (`Photos: x.jpg: …`). */
export type ZipPhoto = { ok: true; url: string } | { ok: false; message: string };

export type ZipPhotos =
  | { ok: false; message: string }
  | { ok: true; photos: Map<string, ZipPhoto> };

const LABEL = LISTING_LABELS.photos;
/** Megabytes, rounded up: a file a byte over a limit never reads as the limit itself. */
const megabytes = (bytes: number) => `${Math.ceil(bytes / 1024 / 1024)} MB`;
const CONTROL = /\p{Cc}/u;

/** Why a name is refused (a path that could leave the ZIP, or a character no name holds), or null. */
function unsafeName(name: string): string | null {
  if (name.includes('\\')) return 'with a backslash, which a path that leaves the ZIP can hide in';
  if (name.startsWith('/')) return 'with a path from the root of a disk';
  if (/^[A-Za-z]:/.test(name)) return 'with a drive';
  if (name.split('/').includes('..')) return 'with a path that leaves the ZIP';
  if (CONTROL.test(name)) return 'with a control character';
  return null;
}

/** Files a Mac adds to a ZIP beside the photos, and folders: passed over. */
const passedOver = (name: string) =>
  name.endsWith('/') || name.split('/')[0] === '__MACOSX' || photoKey(name).startsWith('._');

/** A name as shown in a message: its control characters made visible, never acted on. */
const shown = (name: string) => name.replace(/\p{Cc}/gu, '\uFFFD');

/** A name as stored: UTF-8 when it is (the flag is often missing), else byte for byte. */
const decoded = (raw: Buffer) => raw.toString(isUtf8(raw) ? 'utf8' : 'latin1');

/** The entries of the ZIP a row names, by base name, and those refused for their names. */
type Directory = { safe: Map<string, Entry[]>; unsafe: Map<string, string[]> };

async function directoryOf(zip: ZipFile, wanted: ReadonlySet<string>): Promise<Directory> {
  const directory: Directory = { safe: new Map(), unsafe: new Map() };
  for await (const entry of zip.eachEntry()) {
    const name = decoded(entry.fileNameRaw);
    const key = photoKey(name);
    if (!wanted.has(key)) continue;
    const unsafe = unsafeName(name);
    if (unsafe) {
      const said = `${unsafe} (${shown(name)})`;
      directory.unsafe.set(key, [...(directory.unsafe.get(key) ?? []), said]);
    } else if (!passedOver(name)) {
      directory.safe.set(key, [...(directory.safe.get(key) ?? []), entry]);
    }
  }
  return directory;
}

const MORE_THAN_DECLARED = 'unpacks to more than it declares (a damaged or hostile ZIP)';

/** The unpacked bytes of one entry, stopped the moment they pass its declared size or 10 MB. */
async function unpack(zip: ZipFile, entry: Entry): Promise<Buffer | string> {
  const most = Math.min(entry.uncompressedSize, MAX_IMAGE_BYTES);
  const chunks: Buffer[] = [];
  let count = 0;
  try {
    const stream = await zip.openReadStreamPromise(entry);
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      count += chunk.length;
      // Leaving the loop destroys the stream: nothing more is inflated.
      if (count > most) return MORE_THAN_DECLARED;
      chunks.push(chunk);
    }
  } catch (err) {
    // yauzl's own check of the declared size (`validateEntrySizes`) stops a bomb before ours.
    if (err instanceof Error && /^too many bytes/.test(err.message)) return MORE_THAN_DECLARED;
    // A broken deflate stream or a damaged local header.
    return 'is damaged in the ZIP; zip the photos again';
  }
  return Buffer.concat(chunks, count);
}

/** A photo's problem as the page shows it: `Photos: front.jpg: the file is not …`. */
const problem = (name: string, says: string): ZipPhoto => ({
  ok: false,
  message: `${LABEL}: ${shown(name)}: ${says}`,
});
/** An InvalidImageError's sentence as the rest of a photo's problem. */
const imageProblem = (name: string, err: InvalidImageError) =>
  problem(name, `${err.message.charAt(0).toLowerCase()}${err.message.slice(1).replace(/\.$/, '')}`);

/**
 * The photos rows name (`wanted`, as written), each checked by its bytes and handed to `take`,
 * which stores it and answers its URL; keyed by lower-case base name. Or the one sentence that
 * refuses the whole ZIP. `take`'s InvalidImageError fails its photo; its other errors propagate.
 * `progress` is called after each photo named is handled.
 */
export async function readZipPhotos(
  zipPath: string,
  wanted: readonly string[],
  take: (bytes: Buffer, name: string) => Promise<string>,
  progress?: () => Promise<void>,
): Promise<ZipPhotos> {
  const size = (await stat(zipPath)).size;
  if (size > BULK_ZIP_MAX_BYTES)
    return {
      ok: false,
      message: `The ZIP is ${megabytes(size)}, and it may be at most ${megabytes(BULK_ZIP_MAX_BYTES)}; split the phones into two uploads.`,
    };
  const refused = {
    ok: false,
    message: 'The photos file is not a ZIP, or its directory is damaged; zip the photos again.',
  } as const;
  let zip: ZipFile;
  try {
    zip = await yauzl.openPromise(zipPath, {
      lazyEntries: true,
      validateEntrySizes: true,
      decodeStrings: false,
      // Closed here once every photo is read: the directory is read whole before any photo.
      autoClose: false,
    });
  } catch {
    return refused;
  }
  try {
    if (zip.entryCount > BULK_ZIP_MAX_ENTRIES)
      return {
        ok: false,
        message: `The ZIP holds ${zip.entryCount} files, and it may hold at most ${BULK_ZIP_MAX_ENTRIES}; zip only the phones' photos, or split the phones into two uploads.`,
      };
    // The name each key was first written as by a row, for messages in the row's own words.
    const names = new Map<string, string>();
    for (const name of wanted) if (!names.has(photoKey(name))) names.set(photoKey(name), name);
    let directory: Directory;
    try {
      directory = await directoryOf(zip, new Set(names.keys()));
    } catch {
      return refused;
    }
    const photos = new Map<string, ZipPhoto>();
    let unpacked = 0;
    for (const [key, name] of names) {
      const found = directory.safe.get(key) ?? [];
      const unsafe = directory.unsafe.get(key) ?? [];
      const entry = found[0];
      if (found.length > 1) {
        const paths = found.map((e) => shown(decoded(e.fileNameRaw))).join(', ');
        photos.set(key, problem(name, `is in the ZIP ${found.length} times (${paths}); keep one`));
      } else if (!entry && unsafe.length > 0) {
        photos.set(
          key,
          problem(
            name,
            `was refused, as the ZIP names it ${unsafe[0]}; zip the photos again from their folder`,
          ),
        );
      } else if (!entry) {
        photos.set(key, problem(name, 'is not in the ZIP'));
      } else if (entry.isEncrypted()) {
        photos.set(key, problem(name, 'is encrypted; zip the photos again without a password'));
      } else if (entry.uncompressedSize > MAX_IMAGE_BYTES) {
        photos.set(key, problem(name, 'is larger than 10 MB, the most a photo may be'));
      } else if (!entry.canDecodeFileData()) {
        photos.set(key, problem(name, 'is packed in a way we cannot read; zip the photos again'));
      } else if (unpacked + entry.uncompressedSize > BULK_UNPACKED_MAX_BYTES) {
        photos.set(
          key,
          problem(
            name,
            `the ZIP's photos together unpack to more than ${megabytes(BULK_UNPACKED_MAX_BYTES)}; send fewer phones in one upload`,
          ),
        );
      } else {
        // Its declared size bounds what it unpacks (yauzl and `unpack` stop past it), so the
        // total counts a photo that failed part-way as well as one read whole.
        unpacked += entry.uncompressedSize;
        const bytes = await unpack(zip, entry);
        photos.set(
          key,
          typeof bytes === 'string' ? problem(name, bytes) : await stored(bytes, name, take),
        );
      }
      await progress?.();
    }
    return { ok: true, photos };
  } finally {
    zip.close();
  }
}

/** A photo checked by its bytes, then stored by `take`; its URL, or why it is no photo. */
async function stored(
  bytes: Buffer,
  name: string,
  take: (bytes: Buffer, name: string) => Promise<string>,
): Promise<ZipPhoto> {
  try {
    await openImage(bytes);
    return { ok: true, url: await take(bytes, name) };
  } catch (err) {
    if (err instanceof InvalidImageError) return imageProblem(name, err);
    throw err;
  }
}
