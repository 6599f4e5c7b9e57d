/**
 * What ties two accounts to one person, kept so that a copy of the database reveals neither
 * (issue 29, decision 038): the client addresses an account acted from, the card numbers it
 * paid with and its browsers' device ids (decision 052's addendum), each as an HMAC-SHA256
 * under a key derived (HKDF) from the server's IMEI key. A plain hash would not do: there are
 * 2^32 IPv4 addresses and a card number's digits after its issuer are about 10^9 candidates,
 * both a brute force of minutes. A device id is random and beyond that, keyed all the same: a copy
 * of the database cannot then be matched against the cookie of a browser someone holds.
 */
import { createHmac, hkdfSync } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import { clientKey } from '../auth/identity-guard';

/**
 * Addresses that are no client's own: the proxy in front of a server without TRUSTED_PROXIES,
 * a private network, a carrier's shared NAT (100.64.0.0/10). Every account seen from one of them
 * would look related to every other.
 */
const NOT_A_CLIENT = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const)
  NOT_A_CLIENT.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
] as const)
  NOT_A_CLIENT.addSubnet(network, prefix, 'ipv6');

export class Fingerprints {
  readonly #key: Buffer;

  constructor(secret: string) {
    this.#key = Buffer.from(hkdfSync('sha256', secret, 'phone-market trust', 'fingerprint', 32));
  }

  #of(
    kind: 'address' | 'card' | 'device' | 'account' | 'browser' | 'visitor',
    value: string,
  ): string {
    return createHmac('sha256', this.#key).update(`${kind}:${value}`).digest('base64url');
  }

  /**
   * The fingerprint of a client address (an IPv4 address, an IPv6 /64: one household or phone),
   * or null for one that is no client's own.
   */
  address(ip: string): string | null {
    const address = ip.replace(/^::ffff:/i, '');
    const version = isIP(address);
    if (version === 0 || NOT_A_CLIENT.check(address, version === 4 ? 'ipv4' : 'ipv6')) return null;
    return this.#of('address', clientKey(address));
  }

  /**
   * Who viewed a phone's page on `day` (issue 35, decision 055 and its addendum): a signed-in
   * account by its id, a browser by its device cookie, else a visitor by client address (an IPv6
   * /64) and browser, each with the day, so the table does not follow anyone from one day to the
   * next (and a browser's view is not its device fingerprint of the trust signals). Private
   * addresses count too: it tells nobody apart.
   */
  viewer(
    day: string,
    who: { account: string } | { device: string } | { ip: string; userAgent: string },
  ): string {
    if ('account' in who) return this.#of('account', `${day}:${who.account}`);
    if ('device' in who) return this.#of('browser', `${day}:${who.device}`);
    return this.#of(
      'visitor',
      `${day}:${clientKey(who.ip.replace(/^::ffff:/i, ''))}:${who.userAgent}`,
    );
  }

  /** The fingerprint of a card number, however it was spaced. */
  card(number: string): string {
    return this.#of('card', number.replace(/\D/g, ''));
  }

  /** The fingerprint of a device id (the device cookie's value, checked before it gets here). */
  device(id: string): string {
    return this.#of('device', id);
  }
}
