import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('runs on a fresh machine with no variables set', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 3000,
      HOST: '0.0.0.0',
      SEED_DEMO: true,
      ADMIN_EMAILS: [],
      LOG_LEVEL: 'info',
      REQUEST_TIMEOUT_MS: 50_000,
    });
    expect(config.DATA_DIR).toMatch(/data$/);
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('reads admin e-mails as a trimmed, lower-cased list', () => {
    expect(
      loadConfig({ ADMIN_EMAILS: ' Boss@Example.com, ops@example.com ,' }).ADMIN_EMAILS,
    ).toEqual(['boss@example.com', 'ops@example.com']);
  });

  it('takes a read replica only beside a PostgreSQL primary', () => {
    const primary = 'postgres://db.internal/market';
    const replica = 'postgres://db-replica.internal/market';
    expect(
      loadConfig({ DATABASE_URL: primary, DATABASE_READ_URL: replica }).DATABASE_READ_URL,
    ).toBe(replica);
    expect(() => loadConfig({ DATABASE_READ_URL: replica })).toThrow(
      /DATABASE_READ_URL: needs DATABASE_URL/,
    );
  });

  it('turns demo data off with SEED_DEMO=0', () => {
    expect(loadConfig({ SEED_DEMO: '0' }).SEED_DEMO).toBe(false);
  });

  it('trusts no proxy unless told which', () => {
    expect(loadConfig({}).TRUSTED_PROXIES).toBe(false);
    expect(loadConfig({ PUBLIC_URL: 'https://shop.example' }).TRUSTED_PROXIES).toBe(false);
    expect(loadConfig({ TRUSTED_PROXIES: ' ' }).TRUSTED_PROXIES).toBe(false);
    expect(loadConfig({ TRUSTED_PROXIES: '0' }).TRUSTED_PROXIES).toBe(false);
  });

  it('reads trusted proxies as addresses and CIDRs, IPv4 and IPv6, or as a hop count', () => {
    expect(
      loadConfig({ TRUSTED_PROXIES: '127.0.0.1, 10.0.0.0/8,::1 , fd00::/8,::ffff:192.0.2.1' })
        .TRUSTED_PROXIES,
    ).toEqual(['127.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8', '::ffff:192.0.2.1']);
    expect(loadConfig({ TRUSTED_PROXIES: '2' }).TRUSTED_PROXIES).toBe(2);
  });

  it.each([
    'proxy.example',
    '10.0.0.1, nginx',
    '10.0.0.0/33',
    '10.0.0.0/',
    'fd00::/129',
    '1.2.3',
    '256.0.0.1',
    '-1',
    '1.5',
    'true',
  ])('stops with a message naming TRUSTED_PROXIES when it is %j', (value) => {
    expect(() => loadConfig({ TRUSTED_PROXIES: value })).toThrow(/\bTRUSTED_PROXIES\b/);
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://localhost/db'],
    ['DATABASE_READ_URL', 'mysql://localhost/db'],
    ['SEED_DEMO', 'maybe'],
    ['ADMIN_EMAILS', 'not-an-email'],
    ['PUBLIC_URL', 'shop.example.com'],
    ['LOG_LEVEL', 'loud'],
    ['REQUEST_TIMEOUT_MS', 'soon'],
    ['REQUEST_TIMEOUT_MS', '0'],
  ])('stops with a message naming %s when it is %s', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`\\b${name}\\b`));
  });
});
