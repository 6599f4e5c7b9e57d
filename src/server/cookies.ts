/**
 * The cookies this server sets itself (the identity provider sets its own): read strictly, as
 * any input, and Secure exactly when the identity provider's are.
 */
import type { Config } from './config';

const COOKIE_PAIR = /(?:^|;)\s*([^=;\s]+)\s*=\s*([^;]*)/g;

/**
 * Every value a Cookie header gives `name`, in the order sent (a browser sends the cookie of the
 * most specific path first; a forged header may send anything, several times).
 */
export function cookieValues(header: string | undefined, name: string): string[] {
  if (typeof header !== 'string') return [];
  const values: string[] = [];
  for (const [, key, value] of header.matchAll(COOKIE_PAIR))
    if (key === name) values.push(value?.trim() ?? '');
  return values;
}

/** Cookies are Secure when the site is served over https, as its public address says. */
export const secureCookies = (config: Pick<Config, 'PUBLIC_URL'>): boolean =>
  config.PUBLIC_URL?.startsWith('https://') ?? false;
