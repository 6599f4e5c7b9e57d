/**
 * `npm run photos:to-s3`: copies the photos a server kept in DATA_DIR/uploads into the bucket
 * (S3_BUCKET, S3_ENDPOINT, S3_REGION and the keys, as the servers will have them), before the
 * servers move to it. Photo URLs in the database stay as they are: the servers answer the same
 * /images/ URLs from the bucket. Objects already in the bucket are skipped, so it is safe to run
 * again, after an interruption or to pick up photos uploaded meanwhile.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import { type Config, ConfigError, loadConfig } from '../src/server/config';
import { isVariantName } from '../src/server/images/image-store';
import { uploadsDirOf } from '../src/server/images/image-store-of';
import { S3ImageStore } from '../src/server/images/s3-image-store';

/** Files copied at once: enough to keep a remote bucket busy, few enough for any store's limits. */
const AT_ONCE = 8;

function configOrExit(): Config & { S3_BUCKET: string } {
  try {
    const config = loadConfig();
    if (config.S3_BUCKET !== undefined) return { ...config, S3_BUCKET: config.S3_BUCKET };
    console.error(
      'S3_BUCKET is not set: name the bucket to copy the photos to (with S3_ENDPOINT, S3_REGION and the keys the servers will use).',
    );
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(err.message);
  }
  process.exit(1);
}

/** The names of the files in `dir`, none when it was never made (no photo was ever uploaded). */
async function filesIn(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries.filter((e) => e.isFile()).map((e) => e.name);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

const config = configOrExit();
const store = new S3ImageStore(config);
try {
  await store.checkBucket();
} catch (err) {
  console.error((err as Error).message);
  process.exit(1);
}

const dir = uploadsDirOf(config);
const files = await filesIn(dir);
// A leftover of an interrupted write (`….webp.<uuid>.tmp`) or a stranger's file is nobody's photo.
const photos = files.filter(isVariantName);
const others = files.length - photos.length;
let copied = 0;
let skipped = 0;
const limit = pLimit(AT_ONCE);
try {
  await Promise.all(
    photos.map((name) =>
      limit(async () => {
        if (await store.hasVariant(name)) {
          skipped++;
          return;
        }
        await store.putVariant(name, await readFile(path.join(dir, name)));
        copied++;
      }),
    ),
  );
} catch (err) {
  limit.clearQueue();
  // The store's words for a seller, then the bucket's own for the operator.
  const { message, cause } = err as Error;
  const reason = cause instanceof Error ? `${message} (${cause.message})` : message;
  console.error(
    `Stopped after copying ${copied} and skipping ${skipped} of ${photos.length} photo files: ${reason}\nRun it again to go on; what was copied is skipped.`,
  );
  process.exit(1);
}
const lines = [
  `Copied ${copied} photo files from ${dir} to bucket "${store.bucket}"; skipped ${skipped} already there.`,
];
if (others > 0) lines.push(`Not photos, left where they are: ${others} of the files in ${dir}.`);
console.info(lines.join('\n'));
