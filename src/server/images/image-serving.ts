/**
 * GET and HEAD /images/<name>: our photos at the URLs the database keeps, whichever store holds
 * them. The local store's files are served from its directory; the bucket's objects are passed
 * through (so any server answers any photo), or, with S3_PUBLIC_URL, redirected to the CDN.
 * A name that is not one of ours is a 404 without a look into the bucket.
 */
import { mkdir } from 'node:fs/promises';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { IMAGES_URL_PREFIX, IMMUTABLE, isVariantName, LocalImageStore } from './image-store';
import type { OwnImageStore } from './image-store-of';
import type { S3ImageStore } from './s3-image-store';

/**
 * How long a browser keeps a redirect to the CDN: a day spares the servers nearly every fetch,
 * and a changed S3_PUBLIC_URL still takes over within that day.
 */
const REDIRECT_CACHE = 'public, max-age=86400';

/** One entity tag, as a browser sends back the one it got; lists and `*` are not asked about. */
const SINGLE_ETAG = /^(W\/)?"[^"]*"$/;

export default fp(async function imageServing(
  app: FastifyInstance,
  opts: { store: OwnImageStore },
) {
  const { store } = opts;
  if (store instanceof LocalImageStore) {
    // The store writes here on the first upload; made now so the file server has its root.
    await mkdir(store.dir, { recursive: true });
    await app.register(fastifyStatic, {
      root: store.dir,
      prefix: IMAGES_URL_PREFIX,
      decorateReply: false,
      cacheControl: false,
      setHeaders: (reply) => reply.header('cache-control', IMMUTABLE),
    });
    return;
  }
  serveBucket(app, store);
});

function serveBucket(app: FastifyInstance, store: S3ImageStore) {
  app.route<{ Params: { '*': string } }>({
    method: ['GET', 'HEAD'],
    // A wildcard, not a `:name` parameter: the router answers a parameter over 100 characters
    // with its own error before any handler, and a long name is a missing photo (404) like any
    // other name that is not a variant's.
    url: `${IMAGES_URL_PREFIX}*`,
    schema: { hide: true },
    handler: async (request, reply) => {
      const name = request.params['*'];
      if (!isVariantName(name)) return reply.callNotFound();
      if (store.publicUrl !== null) {
        return reply
          .header('cache-control', REDIRECT_CACHE)
          .redirect(`${store.publicUrl}/${name}`, 308);
      }
      const tag = request.headers['if-none-match'];
      // The visitor gone (the answer closed before it was sent), the bucket is not waited for.
      const left = new AbortController();
      const leave = () => left.abort();
      reply.raw.once('close', leave);
      const variant = await store
        .readVariant(name, {
          withBytes: request.method === 'GET',
          ifNoneMatch: tag !== undefined && SINGLE_ETAG.test(tag) ? tag : undefined,
          signal: left.signal,
        })
        .finally(() => reply.raw.off('close', leave));
      if (variant.kind === 'missing') return reply.callNotFound();
      reply.header('cache-control', IMMUTABLE);
      if (variant.kind === 'unchanged') return reply.code(304).header('etag', variant.etag).send();
      if (variant.etag !== undefined) reply.header('etag', variant.etag);
      reply.type('image/webp').header('content-length', variant.size);
      const { bytes } = variant;
      // A HEAD's answer is these headers alone.
      if (bytes === null) return reply.send();
      return reply.send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    },
  });
}
