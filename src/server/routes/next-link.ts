/** Puts the next page's URL in a `Link: <...>; rel="next"` header, as ARCHITECTURE.md says. */
import type { FastifyReply, FastifyRequest } from 'fastify';

export function setNextLink(
  request: FastifyRequest,
  reply: FastifyReply,
  nextCursor: string | null,
): void {
  const publicUrl = request.server.config.PUBLIC_URL;
  if (!nextCursor) return;
  const url = new URL(request.url, 'http://placeholder');
  url.searchParams.set('cursor', nextCursor);
  const path = `${url.pathname}${url.search}`;
  const href = publicUrl ? new URL(path, publicUrl).href : path;
  reply.header('link', `<${href}>; rel="next"`);
}
