/**
 * Builds the client (dist/client, what browsers load) and the server's page renderer
 * (dist/ssr, decision 016) when either is missing or older than its sources (by content hash).
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const OUT = path.join(ROOT, 'dist', 'client');
export const SSR_ENTRY = path.join(ROOT, 'dist', 'ssr', 'entry-server.js');
const STAMP = path.join(OUT, '.build-hash');
const INPUTS = [
  'src/client',
  'src/shared',
  'public',
  'vite.config.ts',
  'scripts/vite-chunks.ts',
  'scripts/vite-precompress.ts',
  'package-lock.json',
];

async function* filesOf(target: string): AsyncGenerator<string> {
  if (!existsSync(target)) return;
  const entries = await readdir(target, { withFileTypes: true }).catch(() => null);
  if (!entries) {
    yield target;
    return;
  }
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(target, entry.name);
    if (entry.isDirectory()) yield* filesOf(full);
    else if (!/\.test\.tsx?$/.test(entry.name)) yield full;
  }
}

export async function sourceHash(): Promise<string> {
  const hash = createHash('sha256');
  for (const input of INPUTS) {
    for await (const file of filesOf(path.join(ROOT, input))) {
      hash.update(path.relative(ROOT, file));
      hash.update(await readFile(file));
    }
  }
  return hash.digest('hex');
}

/**
 * Both builds, always, for production whoever asks: Vite takes `NODE_ENV` as it finds it, and a
 * build asked for by a test runner (NODE_ENV=test) would ship React's development builds, whose
 * JSX runtime the server's renderer then lacks (every page falls back to the shell).
 */
export async function buildClient(): Promise<void> {
  const { build } = await import('vite');
  const configFile = path.join(ROOT, 'vite.config.ts');
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile, logLevel: 'warn' });
    await build({
      configFile,
      logLevel: 'warn',
      build: {
        ssr: 'entry-server.tsx',
        outDir: path.dirname(SSR_ENTRY),
        emptyOutDir: true,
        manifest: false,
        copyPublicDir: false,
      },
    });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}

export async function ensureClientBuild(): Promise<void> {
  const hash = await sourceHash();
  const current = existsSync(STAMP) ? (await readFile(STAMP, 'utf8')).trim() : null;
  if (current === hash && existsSync(path.join(OUT, 'index.html')) && existsSync(SSR_ENTRY)) return;
  console.info(current ? 'Client sources changed: rebuilding the client…' : 'Building the client…');
  await buildClient();
  await writeFile(STAMP, hash);
}
