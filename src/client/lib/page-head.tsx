/**
 * A page's own `<title>`, description and, for the pages search engines index, its canonical
 * URL, Open Graph tags and JSON-LD. A page renders `<PageHead …/>` once; the server puts the
 * deepest one rendered into the HTML's `<head>` (entry-server.tsx, `headHtml`), and in the
 * browser it sets the document's title, description and those tags as the page changes.
 */
import { createContext, type ReactNode, useContext, useEffect } from 'react';

export type PageHeadProps = {
  /** The page's own part of the title; the site's name follows it. */
  title: string;
  description?: string;
  /** The page's canonical path (`/product/…`): given for the pages worth indexing. */
  path?: string;
  /** An absolute or root-relative URL of the page's picture, for link previews. */
  image?: string;
  type?: 'website' | 'product' | 'profile';
  /** Kept out of search engines (a sold phone, a search's results). */
  noindex?: boolean;
  /**
   * Structured data (schema.org) for search engines; a function is given `absolute`, which makes
   * a path a URL on the site's address (schema.org wants absolute URLs).
   */
  jsonLd?:
    | Record<string, unknown>
    | ((absolute: (path: string) => string) => Record<string, unknown>);
};

export const SITE_NAME = 'Phone Market';
/** The home page's title, and the one the shell (index.html) carries. */
export const SITE_TITLE = `${SITE_NAME}: buy and resell used phones`;

/** The description of a page that gives none: the shell's (index.html). */
export const SITE_DESCRIPTION =
  'Buy and resell used mobile phones from Apple, Samsung, Infinix, Oppo and Xiaomi. Verified sellers, honest prices, secure card payments.';

export const fullTitle = (title: string) => (title ? `${title} · ${SITE_NAME}` : SITE_TITLE);

const HeadContext = createContext<((head: PageHeadProps) => void) | null>(null);

/** The server's collector: each `PageHead` rendered reports to it, the deepest last. */
export function HeadCollector({
  collect,
  children,
}: {
  collect: (head: PageHeadProps) => void;
  children: ReactNode;
}) {
  return <HeadContext.Provider value={collect}>{children}</HeadContext.Provider>;
}

/**
 * The head tags that belong to one page, beside the title and description: what `headHtml` adds
 * for a canonical path, a picture, noindex or JSON-LD. The shell (index.html) has none of them.
 */
const PAGE_TAGS =
  'link[rel="canonical"], meta[property^="og:"], meta[name="twitter:card"], meta[name="robots"], script[type="application/ld+json"]';

/** The page tags last put into the document by `syncPageTags` (or by the server). */
let appliedHead: string | undefined;

/**
 * Makes the document's page tags this page's: those of the page shown before it (the server's
 * for the first page, or the last page's) go, this page's come. Inert: the JSON-LD is a data
 * block, never run, and `headHtml` escaped every value.
 */
function syncPageTags(props: PageHeadProps): void {
  const html = headHtml(props, window.location.origin);
  if (html === appliedHead) return;
  appliedHead = html;
  for (const old of document.head.querySelectorAll(PAGE_TAGS)) old.remove();
  const template = document.createElement('template');
  template.innerHTML = html;
  document.head.append(...template.content.querySelectorAll(PAGE_TAGS));
}

export function PageHead(props: PageHeadProps) {
  const collect = useContext(HeadContext);
  // On the server, during render (effects do not run there).
  collect?.(props);
  const { title, description } = props;
  useEffect(() => {
    document.title = fullTitle(title);
    document
      .querySelector('meta[name="description"]')
      ?.setAttribute('content', description ?? SITE_DESCRIPTION);
  }, [title, description]);
  // After every render: the page's tags follow it as the visitor moves through the app (a
  // function's JSON-LD is new at each render, so the tags are compared as HTML instead).
  useEffect(() => syncPageTags(props));
  return null;
}

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** JSON that is safe inside a `<script>`: no `<`, `>` or `&` to end it or open a comment. */
const safeJson = (value: unknown) =>
  JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

/**
 * The `<head>` tags of a page: its title and description always, and for a page with a
 * canonical path its link, Open Graph and JSON-LD, made absolute against `origin`.
 */
export function headHtml(head: PageHeadProps, origin: string): string {
  const absolute = (url: string) => new URL(url, origin).href;
  const title = escapeHtml(fullTitle(head.title));
  const description = escapeHtml(head.description ?? SITE_DESCRIPTION);
  const tags = [`<title>${title}</title>`, `<meta name="description" content="${description}" />`];
  if (head.noindex) tags.push('<meta name="robots" content="noindex" />');
  if (head.path) {
    const url = escapeHtml(absolute(head.path));
    tags.push(
      `<link rel="canonical" href="${url}" />`,
      `<meta property="og:site_name" content="${SITE_NAME}" />`,
      `<meta property="og:type" content="${head.type ?? 'website'}" />`,
      `<meta property="og:title" content="${escapeHtml(head.title || SITE_TITLE)}" />`,
      `<meta property="og:description" content="${description}" />`,
      `<meta property="og:url" content="${url}" />`,
    );
    if (head.image) {
      tags.push(
        `<meta property="og:image" content="${escapeHtml(absolute(head.image))}" />`,
        '<meta name="twitter:card" content="summary_large_image" />',
      );
    }
  }
  if (head.jsonLd) {
    const data = typeof head.jsonLd === 'function' ? head.jsonLd(absolute) : head.jsonLd;
    tags.push(`<script type="application/ld+json">${safeJson(data)}</script>`);
  }
  return tags.join('\n    ');
}
