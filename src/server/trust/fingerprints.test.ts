import { describe, expect, it } from 'vitest';
import { Fingerprints } from './fingerprints';

const keyed = new Fingerprints('a server secret');

describe('fingerprints', () => {
  it('are one per IPv4 address and per IPv6 /64, however the address is written', () => {
    expect(keyed.address('203.0.113.9')).toBe(keyed.address('::ffff:203.0.113.9'));
    expect(keyed.address('203.0.113.9')).not.toBe(keyed.address('203.0.113.10'));
    expect(keyed.address('2001:db8:1:2::10')).toBe(keyed.address('2001:db8:1:2:aaaa::1'));
    expect(keyed.address('2001:db8:1:2::10')).not.toBe(keyed.address('2001:db8:1:3::10'));
  });

  it('are none for an address that is no client’s own, or no address', () => {
    for (const address of [
      '127.0.0.1',
      '10.0.0.5',
      '172.16.1.1',
      '192.168.1.1',
      '100.64.0.1',
      '169.254.1.1',
      '::1',
      '::ffff:10.0.0.5',
      'fd12::1',
      'fe80::1',
      'not an address',
    ])
      expect(keyed.address(address), address).toBeNull();
  });

  it('are keyed: another secret, another fingerprint; the card however it was spaced', () => {
    expect(new Fingerprints('another').address('203.0.113.9')).not.toBe(
      keyed.address('203.0.113.9'),
    );
    expect(keyed.card('4242 4242 4242 4242')).toBe(keyed.card('4242424242424242'));
    expect(keyed.card('4242424242424242')).not.toContain('4242');
  });

  it('are one per device id, keyed and apart from an address or card of the same text', () => {
    const id = '0123456789abcdef0123456789abcdef';
    expect(keyed.device(id)).toBe(keyed.device(id));
    expect(keyed.device(id)).not.toContain(id);
    expect(keyed.device(id)).not.toBe(new Fingerprints('another').device(id));
    expect(keyed.device(id)).not.toBe(keyed.card(id));
  });
});
