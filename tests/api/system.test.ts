import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, clientConfigSchema } from '../../src/shared/api';
import { buildTestApp, type TestApp } from '../helpers/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('health and configuration', () => {
  it('reports the database healthy', async () => {
    await t.app.searchCounts?.settled();
    const res = await t.app.inject('/api/health');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: 'ok', searchCounts: 'ready' });
  });

  it('tells the client which embedded services are live, with no secrets', async () => {
    const res = await t.app.inject('/api/config');
    expect(res.statusCode).toBe(200);
    expect(clientConfigSchema.parse(res.json())).toEqual({
      identity: { google: false },
      payments: { provider: 'embedded', publishableKey: null },
      // The fee a seller is told before listing, and where payouts go (issue 30).
      fees: { percent: 5, minCents: 0 },
      payouts: { provider: 'embedded', schedule: 'daily', accountHoldHours: 24 },
      images: { provider: 'embedded', uploadUrl: '/api/images' },
    });
  });
});

describe('web vitals', () => {
  const vital = { name: 'LCP', value: 812.4, rating: 'good', id: 'v5-1', path: '/' };

  it('accepts a valid report', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/vitals', payload: vital });
    expect(res.statusCode).toBe(204);
  });

  it.each([
    [{ ...vital, name: 'XSS' }, 'name'],
    [{ ...vital, value: -1 }, 'value'],
    [{ ...vital, path: 'x'.repeat(600) }, 'path'],
  ])('refuses a bad report with a 400 naming the field', async (payload, field) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/vitals', payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(field);
  });

  it('answers malformed JSON with a readable 400, not a 500', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/vitals',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: expect.any(String) });
  });
});

describe('unknown API paths and the API reference', () => {
  it('answers an unknown /api path with JSON 404', async () => {
    const res = await t.app.inject('/api/no-such-thing');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json().message).toMatch(/not found/i);
  });

  it('publishes an OpenAPI document listing every route this server has', async () => {
    const res = await t.app.inject('/api/openapi.json');
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    const paths = Object.keys(doc.paths);
    for (const call of [
      calls.listCategories,
      calls.categoryProducts,
      calls.listAdvertised,
      calls.health,
    ]) {
      expect(paths).toContain(`/api${call.path.replace(/:(\w+)/g, '{$1}')}`);
    }
  });

  it('serves a reference page at /api/docs', async () => {
    const res = await t.app.inject('/api/docs/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
  });
});

describe('security headers', () => {
  it('sends a strict content security policy and no-sniff on every answer', async () => {
    const res = await t.app.inject('/api/category');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });
});
