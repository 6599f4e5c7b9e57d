import type { FastifyRequest } from 'fastify';

/** A Fastify request's headers as Fetch API headers (for the identity provider). */
export function webHeadersOf(request: FastifyRequest): Headers {
  const headers = new Headers();
  for (const [key, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(key, v);
  }
  return headers;
}
