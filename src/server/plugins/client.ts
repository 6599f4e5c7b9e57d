/**
 * Serves the built client (hashed assets cached forever, precompressed brotli/gzip, pages never
 * cached) and the image host's photos (images/image-serving.ts). Unknown /api paths answer JSON
 * 404. Every other path is a page: the public ones come rendered by the server (decision 016),
 * the rest get the client's shell, which renders them (and its own 404 page).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { API_BASE } from '../../shared/api';
import { type PageRenderer, ROOT_ELEMENT } from '../../shared/page-rendering';
import { formatLsn } from '../db/read-router';
import { levelOfFailure } from '../db/unavailable';
import imageServing from '../images/image-serving';
import { IMAGES_URL_PREFIX } from '../images/image-store';
import type { OwnImageStore } from '../images/image-store-of';
import { countPageView } from '../views/count-view';
import type { PublicPage } from './public-answers';
import { POSITION_COOKIE, positionOf } from './read-routing';

const IMMUTABLE = 'public, max-age=31536000, immutable';

export default fp(async function client(
  app: FastifyInstance,
  opts: { clientDir: string; images: OwnImageStore },
) {
  await app.register(imageServing, { store: opts.images });

  const hasClient = existsSync(path.join(opts.clientDir, 'index.html'));
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: opts.clientDir,
      prefix: '/',
      preCompressed: true,
      // The build's own files (`.vite/manifest.json`, `.build-hash`) are not the site's.
      dotfiles: 'ignore',
      cacheControl: false,
      index: false, // `/` is a page like any other (rendered below)
      wildcard: true,
      setHeaders: (reply, file) => {
        const hashed = file.includes(`${path.sep}assets${path.sep}`);
        reply.header('cache-control', hashed ? IMMUTABLE : 'no-cache');
      },
    });
  }

  const renderPage = hasClient ? await pageRenderer(app, opts.clientDir) : null;

  const sendPage = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('cache-control', 'no-cache');
    // A person who has just written gets a page read at or past their write (decision 048).
    const need = positionOf(request);
    const page = renderPage
      ? await app.publicPages.getSeeing(request.url, need, async () => ({
          value: await renderPage(request),
          seen: need,
        }))
      : SHELL;
    // Here, not in the renderer: a page served from the kept pages is a view too (decision 055's
    // addendum). Counting puts it in memory; nothing is read, and the answer stays the same.
    countPageView(request, page.status);
    if (!page.bodies) return reply.code(page.status).sendFile('index.html', opts.clientDir);
    const encoding = preferredEncoding(request.headers['accept-encoding']);
    if (encoding !== 'identity') reply.header('content-encoding', encoding);
    return reply
      .code(page.status)
      .header('vary', 'accept-encoding')
      .type('text/html; charset=utf-8')
      .send(page.bodies[encoding]);
  };
  // The static files' wildcard would answer `/` (a directory) itself.
  if (hasClient) app.get('/', { schema: { hide: true } }, sendPage);

  app.setNotFoundHandler(async (request, reply) => {
    const url = request.url;
    const wantsPage = request.method === 'GET' || request.method === 'HEAD';
    if (
      url === API_BASE ||
      url.startsWith(`${API_BASE}/`) ||
      url.startsWith(IMAGES_URL_PREFIX) ||
      !wantsPage ||
      !hasClient
    ) {
      return reply.code(404).send({ message: `Not found: ${request.method} ${url.split('?')[0]}` });
    }
    return sendPage(request, reply);
  });
});

/**
 * The server's renderer (dist/ssr, built with the client) around the built index.html, or null
 * without that build. Its API calls go through the app itself (`inject`), not the network. A
 * page it declines or fails to render is left to the browser: the shell still works.
 */
async function pageRenderer(app: FastifyInstance, clientDir: string) {
  const entry = path.resolve(clientDir, '../ssr/entry-server.js');
  if (!existsSync(entry)) return null;
  const { renderPage } = (await import(pathToFileURL(entry).href)) as { renderPage: PageRenderer };
  const [head = '', tail] = (await readFile(path.join(clientDir, 'index.html'), 'utf8')).split(
    ROOT_ELEMENT,
  );
  if (tail === undefined) throw new Error(`${clientDir}/index.html has no ${ROOT_ELEMENT}`);

  /** The shell's title and description, which a rendered page's own head replaces. */
  const SHELL_HEAD = /<title>[\s\S]*?<\/title>\s*<meta name="description"[^>]*>/;
  if (!SHELL_HEAD.test(head))
    throw new Error(`${clientDir}/index.html has no title and description`);
  // Canonical URLs are the site's public address, never what a request's Host header says (a
  // rendered page is kept and sent to others).
  const origin = app.config.PUBLIC_URL ?? `http://localhost:${app.config.PORT}`;

  /**
   * The API as the visitor whose page is rendered: their address, so the renderer's calls count
   * against that visitor's limits (a search's), not one allowance all renders would share.
   */
  const fetchApiFor =
    (visitor: string, position: bigint): typeof fetch =>
    async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
      const res = await app.inject({
        method: (init?.method ?? 'GET') as 'GET',
        remoteAddress: visitor,
        url: `${url.pathname}${url.search}`,
        // The visitor's last write's position and nothing else of theirs: the page is public.
        headers: {
          accept: 'application/json',
          ...(position > 0n ? { cookie: `${POSITION_COOKIE}=${formatLsn(position)}` } : {}),
        },
      });
      const headers = new Headers();
      for (const name of ['content-type', 'link']) {
        const value = res.headers[name];
        if (typeof value === 'string') headers.set(name, value);
      }
      return new Response(res.statusCode === 204 ? null : res.body, {
        status: res.statusCode,
        headers,
      });
    };

  return async (request: FastifyRequest): Promise<PublicPage> => {
    try {
      const page = await renderPage(
        new Request(new URL(request.url, origin)),
        fetchApiFor(request.ip, positionOf(request)),
      );
      if (page.root === null) return { status: page.status, bodies: null };
      const pageHead = page.head ? head.replace(SHELL_HEAD, () => page.head ?? '') : head;
      return { status: page.status, bodies: await encode(`${pageHead}${page.root}${tail}`) };
    } catch (err) {
      request.log[levelOfFailure(err)](
        { err },
        'server rendering failed; sending the client shell',
      );
      return SHELL;
    }
  };
}

/** The client's shell: the browser renders the page. */
const SHELL: PublicPage = { status: 200, bodies: null };

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * A rendered page compressed once, when it is rendered (pages are kept a second and sent many
 * times): brotli at a quality that takes about a millisecond, gzip for older clients.
 */
async function encode(html: string): Promise<NonNullable<PublicPage['bodies']>> {
  const identity = Buffer.from(html);
  const [br, gz] = await Promise.all([
    brotli(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }),
    gzipped(identity, { level: 6 }),
  ]);
  return { br, gzip: gz, identity };
}

/** The encodings `Accept-Encoding` accepts (a q of 0 refuses one). */
export function acceptedEncodings(header: string | undefined): Set<string> {
  const accepted = new Set<string>();
  for (const part of (header ?? '').toLowerCase().split(',')) {
    const [name = '', ...params] = part.trim().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
    if (q === undefined || Number(q) > 0) accepted.add(name.trim());
  }
  return accepted;
}

/** The client's best encoding of ours from `Accept-Encoding`. */
export function preferredEncoding(header: string | undefined): 'br' | 'gzip' | 'identity' {
  const accepted = acceptedEncodings(header);
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return 'identity';
}
