/**
 * The contract between the server and the page renderer it loads from the client's server build
 * (dist/ssr/entry-server.js, decision 016): the server never imports client code.
 */

/**
 * `root` replaces the shell's empty `<div id="root"></div>`: the page, then its state. A null
 * `root` means the shell, which the browser renders, answered with `status`.
 */
export type RenderedPage = {
  status: number;
  root: string | null;
  /** The page's `<title>`, description and link tags: they replace the shell's title and description. */
  head?: string;
};

/**
 * The page at `request.url`, whose origin is the site's public one (canonical URLs are made
 * against it, never against a request's Host header). `fetchApi` answers the renderer's API calls (the server routes
 * them to itself).
 */
export type PageRenderer = (request: Request, fetchApi: typeof fetch) => Promise<RenderedPage>;

/** The `<script type="application/json">` that carries a rendered page's state. */
export const SSR_STATE_ID = 'ssr-state';

/** The shell's empty root element, which a rendered page replaces. */
export const ROOT_ELEMENT = '<div id="root"></div>';
