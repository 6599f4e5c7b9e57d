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
    });
    expect(config.DATA_DIR).toMatch(/data$/);
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('reads admin e-mails as a trimmed, lower-cased list', () => {
    expect(
      loadConfig({ ADMIN_EMAILS: ' Boss@Example.com, ops@example.com ,' }).ADMIN_EMAILS,
    ).toEqual(['boss@example.com', 'ops@example.com']);
  });

  it('turns demo data off with SEED_DEMO=0', () => {
    expect(loadConfig({ SEED_DEMO: '0' }).SEED_DEMO).toBe(false);
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://localhost/db'],
    ['SEED_DEMO', 'maybe'],
    ['ADMIN_EMAILS', 'not-an-email'],
    ['PUBLIC_URL', 'shop.example.com'],
    ['LOG_LEVEL', 'loud'],
  ])('stops with a message naming %s when it is %s', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`\\b${name}\\b`));
  });
});
