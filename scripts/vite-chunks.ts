/**
 * How the client's code is cut into files (decision 064). Rolldown's automatic splitting gave a
 * public page 34-56 script files, most under 1 KB gzipped: a file for each set of routes sharing
 * a module. Each costs a request (six at a time on HTTP/1.1) and, started by Vite's preload
 * helper, a link inserted in the page's head (47-139 ms of a slow phone's main thread a page).
 * These groups make a page's first load 11-17 files of about the same bytes:
 * - the framework every page starts with, each library one file;
 * - the app's shared code (lib, components, app, shared) used by two routes or more, in one file,
 *   unless it imports a library beyond the framework (forms, charts, payments stay with the pages
 *   that use them);
 * - the page's only script tag and what it imports stay apart: a rendered page paints with 1 KB of
 *   script (decision 016).
 */
import type { Rolldown } from 'vite';

type ChunkingContext = Rolldown.ChunkingContext;

const FRAMEWORK = [
  { name: 'react', test: /node_modules[\\/](react|scheduler)[\\/]/ },
  { name: 'react-dom', test: /node_modules[\\/]react-dom[\\/]/ },
  { name: 'query', test: /node_modules[\\/]@tanstack[\\/]/ },
  { name: 'router', test: /node_modules[\\/](react-router|cookie|set-cookie-parser)[\\/]/ },
];
const SHARED_SOURCE = /[\\/]src[\\/](client[\\/](lib|components|app)|shared)[\\/]/;
const FIRST_SCRIPT = /[\\/]src[\\/]client[\\/]boot\.ts$/;
/** Vite's helper for dynamic imports: the first script uses it, so it has a file of its own. */
const PRELOAD_HELPER = /^\0vite[\\/]preload-helper/;

/**
 * Whether a module and everything it imports statically are the app's own code, the framework or
 * a bundler's helper: such a module joins the shared file without bringing a library a page would
 * not load otherwise. (A cycle counts as fine until a module on it is found not to be.)
 */
function appOrFramework(id: string, ctx: ChunkingContext, seen: Map<string, boolean>): boolean {
  const known = seen.get(id);
  if (known !== undefined) return known;
  seen.set(id, true);
  const ok =
    id.startsWith('\0') ||
    FRAMEWORK.some((group) => group.test.test(id)) ||
    (SHARED_SOURCE.test(id) &&
      (ctx.getModuleInfo(id)?.importedIds ?? []).every((dep) => appOrFramework(dep, ctx, seen)));
  seen.set(id, ok);
  return ok;
}

const inFirstScript = (id: string, ctx: ChunkingContext) =>
  (ctx.getModuleInfo(id)?.importers ?? []).some((importer) => FIRST_SCRIPT.test(importer));

export const codeSplitting: Rolldown.CodeSplittingOptions = {
  groups: [
    { name: 'preload-helper', test: PRELOAD_HELPER, priority: 30 },
    ...FRAMEWORK.map((group) => ({ ...group, priority: 20 })),
    {
      debugName: 'app',
      name: (id, ctx) =>
        SHARED_SOURCE.test(id) && !inFirstScript(id, ctx) && appOrFramework(id, ctx, new Map())
          ? 'app'
          : null,
      minShareCount: 2,
      priority: 10,
    },
  ],
};
