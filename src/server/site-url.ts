/**
 * The site's address as mail links name it (a confirmation, a reset, a notification): PUBLIC_URL,
 * or this machine's own loopback address. Never the host a request names: anyone may send any
 * Host header, and a reset link built from it would send its token to them.
 */
import type { Config } from './config';

export const siteUrlOf = (config: Pick<Config, 'PUBLIC_URL' | 'PORT'>): string =>
  (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, '');

/**
 * The start banner's lines about mail links (issue 31): which address they name, and, without
 * PUBLIC_URL, that a person on another device cannot open them and how to set it.
 */
export function mailLinkLines(config: Pick<Config, 'PUBLIC_URL' | 'PORT'>): string[] {
  const site = siteUrlOf(config);
  if (config.PUBLIC_URL) return [`  mail links: ${site} (PUBLIC_URL)`];
  return [
    `  mail links: ${site} (PUBLIC_URL is not set)`,
    '    They open only on this machine. For people on other devices, set PUBLIC_URL to the',
    `    address they use, e.g. PUBLIC_URL=https://shop.example.com npm start (or http://<this machine's name or IP>:${config.PORT}).`,
  ];
}
