/**
 * The server's renderer of every page but the dashboard's (Vite's SSR build makes it
 * dist/ssr/entry-server.js; the server's client plugin loads it). The same routes and loaders
 * as the browser, data from the server's own API through `fetchApi`; the browser hydrates the
 * HTML (main.tsx).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { type PageRenderer, type RenderedPage, SSR_STATE_ID } from '@shared/page-rendering';
import { dehydrate } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { Providers } from './app/providers';
import { createRoutes } from './app/router';
import { CATCH_ALL, isServerRendered, serializeState } from './app/server-rendering';
import { HeadCollector, headHtml, type PageHeadProps } from './lib/page-head';
import { createQueryClient } from './lib/query-client';
import { setApiFetch } from './lib/transport';

/**
 * The `fetchApi` of the render in progress. The transport's fetch is set once, here, and each API
 * call reaches the fetch of the render that made it, so renders at the same time never borrow
 * one another's.
 */
const renderFetch = new AsyncLocalStorage<typeof fetch>();
setApiFetch((input, init) => {
  const fetchApi = renderFetch.getStore();
  if (!fetchApi) throw new Error('An API call outside a page render');
  return fetchApi(input, init);
});

/** The browser renders it: pages behind sign-in, and redirects, which its router follows. */
const SHELL = { status: 200, root: null };

/**
 * The page at `request.url` as HTML with its state; only a status when the browser should
 * render it (errors, such as an unknown brand's 404: their boundaries cannot be hydrated from
 * JSON); the shell for pages behind sign-in and redirects.
 */
export const renderPage: PageRenderer = (request, fetchApi) =>
  renderFetch.run(fetchApi, () => render(request));

async function render(request: Request): Promise<RenderedPage> {
  if (!isServerRendered(new URL(request.url))) return SHELL;
  const queryClient = createQueryClient();
  const handler = createStaticHandler(createRoutes(queryClient));
  const context = await handler.query(request);
  if (context instanceof Response) return SHELL;
  if (context.errors) return { status: context.statusCode, root: null };
  const notFound = context.matches.at(-1)?.route.path === CATCH_ALL;

  const router = createStaticRouter(handler.dataRoutes, context);
  let head: PageHeadProps = { title: '' };
  const html = renderToString(
    <StrictMode>
      <HeadCollector collect={(h) => (head = h)}>
        <Providers queryClient={queryClient}>
          {/* hydrate={false}: no inline script (the CSP forbids it); the state goes as JSON. */}
          <StaticRouterProvider router={router} context={context} hydrate={false} />
        </Providers>
      </HeadCollector>
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
    head: headHtml(head, new URL(request.url).origin),
  };
}
