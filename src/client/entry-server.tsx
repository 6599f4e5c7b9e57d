/**
 * The server's renderer of every page but the dashboard's (Vite's SSR build makes it
 * dist/ssr/entry-server.js; the server's client plugin loads it). The same routes and loaders
 * as the browser, data from the server's own API through `fetchApi`; the browser hydrates the
 * HTML (main.tsx).
 */
import { type PageRenderer, SSR_STATE_ID } from '@shared/page-rendering';
import { dehydrate } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { Providers } from './app/providers';
import { createRoutes } from './app/router';
import { CATCH_ALL, isServerRendered, serializeState } from './app/server-rendering';
import { setApiFetch } from './lib/api-client';
import { createQueryClient } from './lib/query-client';

/** The browser renders it: pages behind sign-in, and redirects, which its router follows. */
const SHELL = { status: 200, root: null };

/**
 * The page at `request.url` as HTML with its state; only a status when the browser should
 * render it (errors, such as an unknown brand's 404: their boundaries cannot be hydrated from
 * JSON); the shell for pages behind sign-in and redirects.
 */
export const renderPage: PageRenderer = async (request, fetchApi) => {
  if (!isServerRendered(new URL(request.url))) return SHELL;
  setApiFetch(fetchApi);
  const queryClient = createQueryClient();
  const handler = createStaticHandler(createRoutes(queryClient));
  const context = await handler.query(request);
  if (context instanceof Response) return SHELL;
  if (context.errors) return { status: context.statusCode, root: null };
  const notFound = context.matches.at(-1)?.route.path === CATCH_ALL;

  const router = createStaticRouter(handler.dataRoutes, context);
  const html = renderToString(
    <StrictMode>
      <Providers queryClient={queryClient}>
        {/* hydrate={false}: no inline script (the CSP forbids it); the state goes as JSON. */}
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </Providers>
    </StrictMode>,
  );
  const state = serializeState({
    router: { loaderData: context.loaderData, actionData: context.actionData },
    queries: dehydrate(queryClient),
  });
  queryClient.clear();
  return {
    status: notFound ? 404 : context.statusCode,
    root: `<div id="root">${html}</div><script type="application/json" id="${SSR_STATE_ID}">${state}</script>`,
  };
};
