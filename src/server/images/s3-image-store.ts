/**
 * Photos in S3-compatible object storage (AWS S3, MinIO, R2, …): the same checked WebP variants as
 * the local store, kept as objects of the bucket under the same names, so every server behind a
 * load balancer reads the photos any of them stored (decision 030).
 */
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { LRUCache } from 'lru-cache';
import pLimit from 'p-limit';
import { type Config, ConfigError } from '../config';
import { ServiceUnavailableError } from '../domain/domain-error';
import { IMMUTABLE, VariantImageStore } from './image-store';

export type S3Config = Pick<
  Config,
  'S3_ENDPOINT' | 'S3_REGION' | 'S3_ACCESS_KEY_ID' | 'S3_SECRET_ACCESS_KEY' | 'S3_PUBLIC_URL'
> & { S3_BUCKET: string };

/** The bucket cannot be used: the start stops with this, naming the variables to look at. */
export class BucketUnreachableError extends ConfigError {}

/**
 * What a seller or a visitor is told (503) when the bucket fails once the server runs; the log
 * keeps the bucket's own error.
 */
export const STORAGE_DOWN = 'The photo storage is not answering; try again in a moment.';

/** How long the start waits for the bucket to answer before it gives up. */
const CHECK_TIMEOUT_MS = 10_000;

/** A variant as the bucket answers it: its bytes, or `unchanged` for the client's own copy. */
export type StoredVariant =
  | { kind: 'found'; etag: string | undefined; size: number; bytes: Uint8Array | null }
  | { kind: 'unchanged'; etag: string }
  | { kind: 'missing' };

export class S3ImageStore extends VariantImageStore {
  readonly bucket: string;
  /** Where browsers fetch the objects themselves (a CDN), or null to pass them through us. */
  readonly publicUrl: string | null;
  private readonly client: S3Client;
  /** Where the bucket is, as the operator named it, for the messages that stop a start. */
  private readonly where: string;
  private readonly reads = pLimit(READS_AT_ONCE);
  /** Variants read lately, by name (their bytes never change), up to RECENT_BYTES. */
  private readonly recent = new LRUCache<string, { etag: string; bytes: Uint8Array }>({
    maxSize: RECENT_BYTES,
    sizeCalculation: (v) => v.bytes.length + 100,
    // A photo the sweep removed stops being served within this.
    ttl: 10 * 60 * 1000,
  });

  constructor(config: S3Config, options: { allowSvg?: boolean } = {}) {
    super(options);
    this.bucket = config.S3_BUCKET;
    this.publicUrl = config.S3_PUBLIC_URL?.replace(/\/+$/, '') ?? null;
    this.where = config.S3_ENDPOINT ?? `AWS S3 in ${config.S3_REGION}`;
    // The SDK warns once per process that its releases after January 2027 will need Node 22:
    // news about versions we do not run (package-lock.json pins one that supports our Node 20),
    // printed at every start and in every test. The switch its maintainers give for it
    // (aws/aws-sdk-js-v3#7983) turns off that one warning, no other; an operator who set it
    // otherwise keeps it.
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    this.client = new S3Client({
      region: config.S3_REGION,
      endpoint: config.S3_ENDPOINT,
      // Stores other than AWS (MinIO, the tests' server on 127.0.0.1) seldom have a DNS name per
      // bucket: the bucket goes in the path.
      forcePathStyle: config.S3_ENDPOINT !== undefined,
      // Both keys, or neither: then the SDK's own chain (an instance role, a profile).
      credentials:
        config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
          ? {
              accessKeyId: config.S3_ACCESS_KEY_ID,
              secretAccessKey: config.S3_SECRET_ACCESS_KEY,
            }
          : undefined,
      // A bucket that stops answering fails a request in seconds, instead of holding a seller's
      // upload or a visitor's photo for ever.
      requestHandler: {
        connectionTimeout: 5_000,
        requestTimeout: 20_000,
        throwOnRequestTimeout: true,
      },
    });
  }

  /** Stops the start unless the bucket answers to our keys (HeadBucket), saying what to fix. */
  async checkBucket(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }), {
        abortSignal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
      });
    } catch (err) {
      const status = statusOf(err);
      const bucket = `bucket "${this.bucket}" at ${this.where}`;
      const problem =
        status === 404
          ? `S3_BUCKET, S3_ENDPOINT: there is no ${bucket}`
          : status === 401 || status === 403
            ? `S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: the ${bucket} refuses these keys (${status})`
            : err instanceof Error && ['AbortError', 'TimeoutError'].includes(err.name)
              ? `S3_BUCKET, S3_ENDPOINT: the ${bucket} did not answer within ${CHECK_TIMEOUT_MS / 1000} s`
              : `S3_BUCKET, S3_ENDPOINT: the ${bucket} cannot be reached (${reasonOf(err)})`;
      throw new BucketUnreachableError(`Object storage is not usable:\n  ${problem}`, {
        cause: err,
      });
    }
  }

  async hasVariant(name: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: name }));
      return true;
    } catch (err) {
      if (statusOf(err) === 404) return false;
      throw storageDown(err);
    }
  }

  async putVariant(name: string, bytes: Buffer): Promise<void> {
    const object = new PutObjectCommand({
      Bucket: this.bucket,
      Key: name,
      Body: bytes,
      ContentType: 'image/webp',
      // Kept on the object, so a CDN in front of the bucket (S3_PUBLIC_URL) caches it as we do.
      CacheControl: IMMUTABLE,
    });
    await this.client.send(object).catch((err: unknown) => {
      throw storageDown(err);
    });
  }

  async removeVariant(name: string): Promise<void> {
    this.recent.delete(name);
    // S3 answers a removal of what is not there as done.
    const removal = new DeleteObjectCommand({ Bucket: this.bucket, Key: name });
    await this.client.send(removal).catch((err: unknown) => {
      throw storageDown(err);
    });
  }

  /**
   * A variant as a GET (with its bytes) or a HEAD (without) answers it. `ifNoneMatch` is the
   * ETag the client holds; when it is still the object's, the bucket sends nothing back.
   */
  async readVariant(name: string, options: ReadOptions): Promise<StoredVariant> {
    const { withBytes, ifNoneMatch } = options;
    // Names are content hashes: an object never changes, so a kept copy is the object.
    const kept = this.recent.get(name);
    if (kept) {
      if (ifNoneMatch !== undefined && ifNoneMatch === kept.etag)
        return { kind: 'unchanged', etag: ifNoneMatch };
      return {
        kind: 'found',
        etag: kept.etag,
        size: kept.bytes.length,
        bytes: withBytes ? kept.bytes : null,
      };
    }
    // Visitors' reads share the SDK's sockets with sellers' uploads: a flood of them (made-up
    // names cost a request to the bucket too) waits in a short queue, and past it is told at
    // once to come back, rather than holding every socket and every upload behind it.
    if (this.reads.pendingCount >= READS_WAITING_MAX)
      throw new ServiceUnavailableError(STORAGE_BUSY);
    return this.reads(() => this.fetchVariant(name, options));
  }

  private async fetchVariant(
    name: string,
    { withBytes, ifNoneMatch, signal }: ReadOptions,
  ): Promise<StoredVariant> {
    // A visitor who left while waiting costs the bucket nothing.
    if (signal?.aborted) return { kind: 'missing' };
    const input = { Bucket: this.bucket, Key: name, IfNoneMatch: ifNoneMatch };
    try {
      if (!withBytes) {
        const head = await this.client.send(new HeadObjectCommand(input), { abortSignal: signal });
        return { kind: 'found', etag: head.ETag, size: head.ContentLength ?? 0, bytes: null };
      }
      const object = await this.client.send(new GetObjectCommand(input), { abortSignal: signal });
      if ((object.ContentLength ?? 0) > MAX_VARIANT_BYTES) {
        object.Body?.transformToWebStream().cancel();
        throw new Error(`object ${name} is ${object.ContentLength} bytes, not one of our variants`);
      }
      // Read whole (a variant is tens of kilobytes) before it is sent: a client that reads
      // slowly then holds only its own connection, never one of the SDK's sockets to the bucket.
      const bytes = (await object.Body?.transformToByteArray()) ?? new Uint8Array();
      if (object.ETag !== undefined) this.recent.set(name, { etag: object.ETag, bytes });
      return { kind: 'found', etag: object.ETag, size: bytes.length, bytes };
    } catch (err) {
      const status = statusOf(err);
      if (status === 304 && ifNoneMatch !== undefined)
        return { kind: 'unchanged', etag: ifNoneMatch };
      if (status === 404 || signal?.aborted) return { kind: 'missing' };
      throw storageDown(err);
    }
  }
}

/** How a variant is asked for: GET or HEAD, the client's ETag, the visitor's leaving. */
type ReadOptions = { withBytes: boolean; ifNoneMatch: string | undefined; signal?: AbortSignal };

/** Reads from the bucket at once, and how many may wait for one (then 503 at once). */
const READS_AT_ONCE = 16;
const READS_WAITING_MAX = 256;
/** What the photos most asked for may keep in memory: the covers of the first pages. */
const RECENT_BYTES = 32 * 1024 * 1024;
/** Our widest variant is well under this; an object over it is not one we wrote. */
const MAX_VARIANT_BYTES = 2 * 1024 * 1024;

export const STORAGE_BUSY = 'Too many photos are being fetched just now; try again in a moment.';

const storageDown = (err: unknown) => new ServiceUnavailableError(STORAGE_DOWN, { cause: err });

/** The HTTP status the bucket answered with, when it answered at all. */
const statusOf = (err: unknown): number | undefined =>
  err instanceof S3ServiceException ? err.$metadata.httpStatusCode : undefined;

/** Why a request never got an answer (`connect ECONNREFUSED 127.0.0.1:9000`), or the bucket's. */
const reasonOf = (err: unknown): string => {
  if (!(err instanceof Error)) return String(err);
  const status = statusOf(err);
  return status === undefined ? err.message : `${status} ${err.name}`;
};
