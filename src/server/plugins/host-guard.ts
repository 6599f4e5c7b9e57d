/**
 * A request whose `Host` (or, behind a trusted proxy, `X-Forwarded-Host`) is not a host and an
 * optional port (`127.0.0.1 evil`, `a@b`, `[`) is answered 400 before any route, the identity
 * mount included, builds a URL from it: such a Host made every identity call a 500 with a stack
 * in the log (issue 29). A request with no Host at all (HTTP/1.0, a balancer's health check)
 * names nothing to misread and goes on.
 */
import { isIPv6 } from 'node:net';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** A name or IPv4 address, or a bracketed IPv6 literal, then an optional port. */
const HOST_AND_PORT = /^(?:[A-Za-z0-9._-]+|\[([0-9A-Fa-f:.]+)\])(?::(\d{1,5}))?$/;

/** Whether `host` is a host and an optional port that a URL can be built on. */
export function isWellFormedHost(host: string): boolean {
  const match = HOST_AND_PORT.exec(host);
  if (!match) return false;
  const [, ipv6, port] = match;
  if (ipv6 !== undefined && !isIPv6(ipv6)) return false;
  if (port !== undefined && Number(port) > 65535) return false;
  // The URL parser refuses a few names the pattern lets through (`256.1.1.1`, `1.2.3.4.5`).
  return URL.canParse(`http://${host}`);
}

export default fp(async function hostGuard(app: FastifyInstance) {
  app.addHook('onRequest', async (request, reply) => {
    const host = request.host;
    if (host && !isWellFormedHost(host)) {
      return reply.code(400).send({ message: 'Malformed Host header' });
    }
  });
});
