/**
 * What the server renders and how its state reaches the browser (decision 016). Shared by the
 * server entry and `main.tsx`; no React here.
 */
import type { DehydratedState } from '@tanstack/react-query';
import { matchPath, matchRoutes, type RouteObject } from 'react-router';

/** The path of the catch-all route, the 404 page (router.tsx). */
export const CATCH_ALL = '*';

/**
 * Every page but the dashboard's, which need the session (only the browser has it): the
 * public pages look the same to everyone, and so does the 404 page. Coming back from Google
 * (`?social=`) finishes the sign-in in the browser too.
 */
export const isServerRendered = (url: URL): boolean =>
  !matchPath({ path: '/dashboard', end: false }, url.pathname) && !url.searchParams.has('social');

export type ServerState = {
  router: { loaderData: Record<string, unknown>; actionData: Record<string, unknown> | null };
  queries: DehydratedState;
};

/**
 * JSON that is safe inside `<script type="application/json">`: no `<` (so no `</script>` or
 * `<!--` from a product description), no `>`, `&` or the two JavaScript line separators.
 */
export function serializeState(state: ServerState): string {
  return JSON.stringify(state).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * Loads the lazy route modules the URL matches, in place, so the first render in the browser
 * has every component the server rendered (a lazy route would otherwise show its fallback and
 * the HTML would not match).
 */
export async function resolveLazyRoutes(routes: RouteObject[], pathname: string): Promise<void> {
  const matches = matchRoutes(routes, pathname) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      const loaded = await route.lazy();
      Object.assign(route, { ...loaded, lazy: undefined });
    }),
  );
}
