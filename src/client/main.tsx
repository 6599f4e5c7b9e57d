import { SSR_STATE_ID } from '@shared/page-rendering';
import { hydrate } from '@tanstack/react-query';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { Providers } from './app/providers';
import { createRoutes } from './app/router';
import { resolveLazyRoutes, type ServerState } from './app/server-rendering';
import { setSessionExpiredHandler } from './lib/api-client';
import { signInPathFrom } from './lib/auth/redirect';
import { session } from './lib/auth/session';
import { createQueryClient } from './lib/query-client';
import { reportWebVitals } from './lib/vitals';

const queryClient = createQueryClient();
const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');
/** Public pages come rendered by the server with their data (decision 016). */
const stateScript = document.getElementById(SSR_STATE_ID);
const serverState = stateScript
  ? (JSON.parse(stateScript.textContent ?? '') as ServerState)
  : undefined;

const routes = createRoutes(queryClient);
/**
 * Hydrate when the page's route code has loaded. If it cannot load (a network fault, a deploy
 * that removed the chunk), render afresh instead: the router tries again and shows its error
 * page, which offers a reload, rather than leaving a page that looks alive and is not.
 */
const hydrating =
  serverState !== undefined &&
  (await resolveLazyRoutes(routes, location.pathname).then(
    () => true,
    () => false,
  ));
// The route module has just been evaluated in this task: the rest starts in a task of its own.
if (serverState !== undefined) await new Promise((resolve) => setTimeout(resolve));
if (hydrating) hydrate(queryClient, serverState.queries);
const router = createBrowserRouter(
  routes,
  hydrating ? { hydrationData: serverState.router } : undefined,
);
void session.start();
setSessionExpiredHandler(() => {
  void router.navigate(signInPathFrom(`${location.pathname}${location.search}`));
});

const app = (
  <StrictMode>
    <Providers queryClient={queryClient}>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>
);
/**
 * Hydration as a transition: React hydrates in slices of a few milliseconds and lets the browser
 * in between (a default-priority hydration runs to its end in one task, 25-35 ms here, 100 ms
 * and more on a slow phone). A click meanwhile still reaches React, which hydrates what was
 * clicked first (issue 23).
 */
if (hydrating) startTransition(() => void hydrateRoot(root, app));
else createRoot(root).render(app);

if (import.meta.env.PROD) void reportWebVitals();
