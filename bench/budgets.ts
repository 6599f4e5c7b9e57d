/**
 * Build budgets: the gzipped JavaScript and CSS each public route needs before it can show,
 * read from Vite's build manifest: the entry, the app it starts, the route's lazy chunk, and every
 * chunk those import statically (other dynamic imports load later, on demand).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Figure } from './lib/report';

type ManifestChunk = { file: string; imports?: string[]; css?: string[]; isEntry?: boolean };
type Manifest = Record<string, ManifestChunk>;

/** Each public route and the module its lazy route loads (see src/client/app/router.tsx). */
export const PUBLIC_ROUTES = [
  { path: '/', module: 'features/home/routes/home.tsx' },
  { path: '/category/:id', module: 'features/catalog/routes/category.tsx' },
  { path: '/search', module: 'features/catalog/routes/search.tsx' },
  { path: '/blog', module: 'features/blog/routes/blog.tsx' },
  { path: '/signin', module: 'features/auth/routes/sign-in.tsx' },
] as const;

/**
 * The app itself: the entry (boot.ts) imports it dynamically, right after a server-rendered page's
 * first paint (decision 016), so it is part of every first load all the same.
 */
const APP_MODULE = 'main.tsx';

const SECTION = 'Build budgets (first load, gzipped)';
const JS_BUDGET_HOME_KB = 100;

export type RouteWeight = { path: string; jsKb: number; cssKb: number; files: string[] };

/** Every file a route loads first: its chunks and their static imports, and their CSS. */
function firstLoadFiles(manifest: Manifest, keys: string[]): string[] {
  const seen = new Set<string>();
  const files = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`the build manifest has no chunk ${key}`);
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return [...files];
}

export function routeWeights(clientDir: string): RouteWeight[] {
  const manifest = JSON.parse(
    readFileSync(path.join(clientDir, '.vite/manifest.json'), 'utf8'),
  ) as Manifest;
  const entry = Object.entries(manifest).find(([, chunk]) => chunk.isEntry)?.[0];
  if (!entry) throw new Error('the build manifest has no entry');
  const gzKb = (file: string) =>
    gzipSync(readFileSync(path.join(clientDir, file)), { level: 9 }).length / 1024;
  return PUBLIC_ROUTES.map((route) => {
    const files = firstLoadFiles(manifest, [entry, APP_MODULE, route.module]);
    const sum = (ext: string) =>
      files.filter((f) => f.endsWith(ext)).reduce((total, f) => total + gzKb(f), 0);
    return { path: route.path, jsKb: sum('.js'), cssKb: sum('.css'), files };
  });
}

export function budgetFigures(clientDir: string): Figure[] {
  return routeWeights(clientDir).flatMap((route) => [
    {
      section: SECTION,
      name: `${route.path} JavaScript`,
      value: route.jsKb,
      unit: 'KB',
      ...(route.path === '/' ? { target: { op: '<=' as const, value: JS_BUDGET_HOME_KB } } : {}),
      note: `${route.files.filter((f) => f.endsWith('.js')).length} files`,
    },
    { section: SECTION, name: `${route.path} CSS`, value: route.cssKb, unit: 'KB' },
  ]);
}
