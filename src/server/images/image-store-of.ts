/**
 * Which image store a server keeps its photos in: the bucket when S3_BUCKET is set (several
 * servers share it), else the directory DATA_DIR/uploads (one server's own disk).
 */
import path from 'node:path';
import type { Config } from '../config';
import { LocalImageStore } from './image-store';
import { S3ImageStore } from './s3-image-store';

/** The stores of ours; the image host serves what each keeps (image-serving.ts). */
export type OwnImageStore = LocalImageStore | S3ImageStore;

export const uploadsDirOf = (config: Pick<Config, 'DATA_DIR'>) =>
  path.join(config.DATA_DIR, 'uploads');

/**
 * The store for this configuration, ready to use: a bucket that does not answer stops the start
 * here (BucketUnreachableError, naming S3_BUCKET and S3_ENDPOINT), not at a seller's first upload.
 */
export async function imageStoreOf(
  config: Config,
  options: { allowSvg?: boolean } = {},
): Promise<OwnImageStore> {
  const bucket = config.S3_BUCKET;
  if (bucket === undefined) return new LocalImageStore(uploadsDirOf(config), options);
  const store = new S3ImageStore({ ...config, S3_BUCKET: bucket }, options);
  await store.checkBucket();
  return store;
}

/** The origins other than ours that pages show photos from, for the CSP's img-src. */
export function imageOriginsOf(config: Config): string[] {
  const origins: string[] = [];
  if (config.IMGBB_API_KEY) origins.push(new URL(config.IMGBB_IMAGE_ORIGIN).origin);
  // Our photos' URLs redirect there (image-serving.ts), and a redirected image is checked again.
  if (config.S3_BUCKET && config.S3_PUBLIC_URL) origins.push(new URL(config.S3_PUBLIC_URL).origin);
  return origins;
}
