import { SSR_STATE_ID } from '@shared/page-rendering';
import { hydrate, type QueryClient } from '@tanstack/react-query';
import { StrictMode } from 'react';
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
if (serverState) {
  hydrate(queryClient, serverState.queries);
  await resolveLazyRoutes(routes, location.pathname);
}
const router = createBrowserRouter(
  routes,
  serverState ? { hydrationData: serverState.router } : undefined,
);
void session.start();
setSessionExpiredHandler(() => {
  void router.navigate(signInPathFrom(`${location.pathname}${location.search}`));
});

const app = (client: QueryClient) => (
  <StrictMode>
    <Providers queryClient={client}>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>
);
if (serverState) hydrateRoot(root, app(queryClient));
else createRoot(root).render(app(queryClient));

if (import.meta.env.PROD) void reportWebVitals();
