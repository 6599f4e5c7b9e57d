/**
 * Serves the built client (hashed assets cached forever, precompressed brotli/gzip, index.html
 * never cached) and the image host's files. Unknown /api paths answer JSON 404; any other
 * unknown path gets the client, which shows its own 404 page.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { API_BASE } from '../../shared/api';
import { IMAGES_URL_PREFIX } from '../images/image-store';

const IMMUTABLE = 'public, max-age=31536000, immutable';

export default fp(async function client(
  app: FastifyInstance,
  opts: { clientDir: string; uploadsDir: string },
) {
  await app.register(fastifyStatic, {
    root: opts.uploadsDir,
    prefix: IMAGES_URL_PREFIX,
    decorateReply: false,
    cacheControl: false,
    setHeaders: (reply) => reply.header('cache-control', IMMUTABLE),
  });

  const hasClient = existsSync(path.join(opts.clientDir, 'index.html'));
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: opts.clientDir,
      prefix: '/',
      preCompressed: true,
      // The build's own files (`.vite/manifest.json`, `.build-hash`) are not the site's.
      dotfiles: 'ignore',
      cacheControl: false,
      index: ['index.html'],
      wildcard: true,
      setHeaders: (reply, file) => {
        const hashed = file.includes(`${path.sep}assets${path.sep}`);
        reply.header('cache-control', hashed ? IMMUTABLE : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const url = request.url;
    const wantsPage = request.method === 'GET' || request.method === 'HEAD';
    if (
      url === API_BASE ||
      url.startsWith(`${API_BASE}/`) ||
      url.startsWith(IMAGES_URL_PREFIX) ||
      !wantsPage ||
      !hasClient
    ) {
      return reply.code(404).send({ message: `Not found: ${request.method} ${url.split('?')[0]}` });
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html', opts.clientDir);
  });
});
