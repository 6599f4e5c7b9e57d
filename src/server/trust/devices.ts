/**
 * The device cookie (issue 34, decision 052's addendum): a random 128-bit id a browser keeps for
 * 400 days (the browsers' cap), so that a banned person back in the same browser under a new
 * account is seen. It is set only on a signed-in person's answers that note where they acted from
 * (a token, a listing, a booking, a payment), never on a public page or read: those stay
 * cacheable and kept by the back/forward cache. Only the keyed fingerprint of an id is stored
 * (trust/fingerprints.ts), and only of one a browser brought back: a client that keeps no cookies
 * (a script with a bearer token) has no device, and an id we minted that never came back ties
 * nothing. A value we could not have minted is replaced, never stored.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { cookieValues, secureCookies } from '../cookies';
import type { SeenFrom } from '../repositories/trust';

/** 128 random bits as 32 lowercase hex digits: the only shape a device id has. */
const DEVICE_ID = /^[0-9a-f]{32}$/;

/** The browsers' cap on a cookie's life (RFC 6265bis): 400 days, renewed at each noted answer. */
export const DEVICE_MAX_AGE_S = 400 * 24 * 60 * 60;

/**
 * `__Host-` over https: such a cookie only this host can set, over https, for the whole site, so
 * neither a sibling subdomain nor a forged plain-http answer can plant a banned account's id in
 * somebody's browser to get their listings held.
 */
export const deviceCookieName = (secure: boolean): string => (secure ? '__Host-device' : 'device');

/** A new device id. */
export const newDeviceId = (): string => randomBytes(16).toString('hex');

/** The device id a Cookie header brings: the first of the name that is well formed, else null. */
export function deviceIdIn(header: string | undefined, secure: boolean): string | null {
  return cookieValues(header, deviceCookieName(secure)).find((v) => DEVICE_ID.test(v)) ?? null;
}

/** The Set-Cookie value that gives a browser `id` (or keeps it another 400 days). */
export function deviceCookie(id: string, secure: boolean): string {
  return `${deviceCookieName(secure)}=${id}; Path=/; Max-Age=${DEVICE_MAX_AGE_S}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/**
 * The device a signed-in request came from: the id its browser brought (kept another 400 days),
 * or null, the browser given a new id to bring next time.
 */
function deviceOf(request: FastifyRequest, reply: FastifyReply): string | null {
  const secure = secureCookies(request.server.config);
  const brought = deviceIdIn(request.headers.cookie, secure);
  reply.header('set-cookie', deviceCookie(brought ?? newDeviceId(), secure));
  return brought;
}

/**
 * Where and on what a signed-in request was made, as fingerprints for `noteSeen`. Call it only
 * where the answer is the person's own (it gives the browser its device cookie).
 */
export function seenFrom(request: FastifyRequest, reply: FastifyReply): SeenFrom {
  const { fingerprints } = request.server;
  const device = deviceOf(request, reply);
  return {
    addressHash: fingerprints.address(request.ip),
    deviceHash: device === null ? null : fingerprints.device(device),
  };
}
