/**
 * The one rule for freshness (issue 31, decision 043): every query the client makes is keyed under
 * a root that says what it shows, every subject the live stream sends refreshes the roots that
 * show it, and nothing else. A new view that invents its own key fails here, not in a person's
 * stale page.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { LIVE_RECONNECTED, LIVE_SUBJECTS } from '@shared/live';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { refreshFor, rootsShowing } from './live-refresh';
import { type QueryRoot, queryRoots, ROOT_SHOWS } from './query-keys';

const CLIENT = path.resolve(__dirname, '..');

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sourcesUnder(file);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [file] : [];
  });
}

/**
 * Each key a query is given in the client, as written: an array or a root; a name (a key made
 * elsewhere, passed on) is not a new key.
 */
function keysWritten(): { file: string; key: string }[] {
  return sourcesUnder(CLIENT).flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    return [...text.matchAll(/queryKey:\s*(\[[^\]]*|queryRoots\.\w+|'[^']*')/g)].map((m) => ({
      file: path.relative(CLIENT, file),
      key: (m[1] ?? '').replace(/\s+/g, ' '),
    }));
  });
}

describe('every view is keyed under a root that says what it shows', () => {
  it('finds the keys it checks', () => {
    expect(keysWritten().length).toBeGreaterThan(25);
  });

  it.each(keysWritten())('$file: $key', ({ file, key }) => {
    const local = readFileSync(path.join(CLIENT, file), 'utf8');
    const underRoot =
      /^queryRoots\.\w+$/.test(key) ||
      /^\[ ?\.\.\.queryRoots\.\w+/.test(key) ||
      // Under a key made from a root elsewhere (a page's part of another's query).
      /^\[ ?\.\.\.\w+QueryOptions\([^)]*\)\.queryKey/.test(key) ||
      // A file's own alias of a root.
      (/^\[ ?\.\.\.ROOT\b/.test(key) && /const ROOT = queryRoots\.\w+;/.test(local));
    expect(underRoot, `${file} keys a query "${key}" outside queryRoots`).toBe(true);
  });

  it('no root is the start of another (each refreshes only its own views)', () => {
    const names = Object.values(queryRoots).map((root) => root[0]);
    expect(new Set(names).size).toBe(names.length);
  });
});

describe('each live event refreshes every view that shows its subject', () => {
  it('every subject the stream sends is shown by some view', () => {
    for (const subject of LIVE_SUBJECTS) expect(rootsShowing(subject), subject).not.toEqual([]);
  });

  /** A cache with one answered query under each root. */
  function cacheOfEveryRoot() {
    const queryClient = new QueryClient();
    for (const root of Object.values(queryRoots)) queryClient.setQueryData([...root, 'x'], 1);
    const stale = () =>
      (Object.keys(queryRoots) as QueryRoot[]).filter(
        (root) => queryClient.getQueryState([...queryRoots[root], 'x'])?.isInvalidated,
      );
    return { queryClient, stale };
  }

  it.each(LIVE_SUBJECTS)('"%s" marks stale exactly the roots that show it', async (subject) => {
    const { queryClient, stale } = cacheOfEveryRoot();
    await refreshFor(queryClient, subject);
    expect(stale().sort()).toEqual(
      (Object.keys(ROOT_SHOWS) as QueryRoot[])
        .filter((root) => ROOT_SHOWS[root].includes(subject))
        .sort(),
    );
  });

  it('a page: a lowered price refreshes the phone, the lists, the wish list and orders', async () => {
    const { queryClient, stale } = cacheOfEveryRoot();
    await refreshFor(queryClient, 'product');
    expect(stale()).toEqual(expect.arrayContaining(['products', 'wishList', 'orders', 'sales']));
    expect(stale()).not.toContain('config');
  });

  it('a stream back after a loss refreshes everything an event could have changed', async () => {
    const { queryClient, stale } = cacheOfEveryRoot();
    await refreshFor(queryClient, LIVE_RECONNECTED);
    expect(stale().sort()).toEqual(
      (Object.keys(ROOT_SHOWS) as QueryRoot[]).filter((root) => ROOT_SHOWS[root].length > 0).sort(),
    );
    expect(stale()).not.toContain('paymentIntent');
  });

  it('an event it does not know refreshes nothing', async () => {
    const { queryClient, stale } = cacheOfEveryRoot();
    await refreshFor(queryClient, 'everything');
    expect(stale()).toEqual([]);
  });
});
