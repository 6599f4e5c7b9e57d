import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import type { Database } from '../../src/server/db/client';
import { createTestDatabase } from '../helpers/test-app';

const INDEX = '<!doctype html><html><body><div id="root"></div></body></html>';
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(2000))});`;

let app: FastifyInstance;
let database: Database;
let root: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'phone-market-client-'));
  const clientDir = path.join(root, 'client');
  await mkdir(path.join(clientDir, 'assets'), { recursive: true });
  await writeFile(path.join(clientDir, 'index.html'), INDEX);
  await writeFile(path.join(clientDir, 'assets', 'app-abc123.js'), SCRIPT);
  await writeFile(path.join(clientDir, 'assets', 'app-abc123.js.br'), brotliCompressSync(SCRIPT));
  await writeFile(path.join(clientDir, 'assets', 'app-abc123.js.gz'), gzipSync(SCRIPT));
  await mkdir(path.join(clientDir, '.vite'), { recursive: true });
  await writeFile(path.join(clientDir, '.vite', 'manifest.json'), '{"secret":"build map"}');
  await mkdir(path.join(root, 'data', 'uploads'), { recursive: true });
  await writeFile(path.join(root, 'data', 'uploads', 'feed-640.webp'), 'webp');
  database = await createTestDatabase();
  const config = {
    ...loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: path.join(root, 'data') }),
    CLIENT_DIR: clientDir,
  };
  app = await buildApp({ config, database });
});

afterAll(async () => {
  await app.close();
  await database.close();
  await rm(root, { recursive: true, force: true });
});

describe('serving the built client', () => {
  it('serves hashed assets precompressed and cached for a year', async () => {
    const res = await app.inject({
      url: '/assets/app-abc123.js',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('falls back to gzip for clients without brotli', async () => {
    const res = await app.inject({
      url: '/assets/app-abc123.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(res.headers['content-encoding']).toBe('gzip');
  });

  it('never caches index.html, and serves it for client routes and unknown pages alike', async () => {
    for (const url of ['/', '/category/01', '/blog', '/no/such/page']) {
      const res = await app.inject(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toBe(INDEX);
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it("never serves the build's own dotfiles, such as Vite's manifest", async () => {
    const res = await app.inject('/.vite/manifest.json');
    expect(res.body).not.toContain('build map');
  });

  it('answers unknown /api paths and missing images with JSON 404, never the page', async () => {
    for (const url of ['/api/nope', '/images/missing-640.webp']) {
      const res = await app.inject(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().message).toMatch(/not found/i);
    }
  });

  it('serves stored images with immutable caching', async () => {
    const res = await app.inject('/images/feed-640.webp');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });
});
