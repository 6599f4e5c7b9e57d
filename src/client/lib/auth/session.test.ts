import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const EMAIL = 'buyer@example.com';
const MINUTE = 60_000;

/** An unsigned JWT-shaped token that expires `minutes` from now (the client only reads `exp`). */
const tokenExpiringIn = (minutes: number) => {
  const payload = btoa(
    JSON.stringify({ email: EMAIL, exp: Math.floor((Date.now() + minutes * MINUTE) / 1000) }),
  );
  return `eyJhbGciOiJIUzI1NiJ9.${payload}.signature`;
};

type Reply = () => Response;
let tokenReplies: Reply[];
const tokenCalls = () =>
  vi.mocked(fetch).mock.calls.filter(([url]) => String(url).startsWith('/api/jwt'));

async function loadSession() {
  vi.resetModules();
  return (await import('./session')).session;
}

beforeEach(() => {
  vi.useFakeTimers();
  // On a whole second, as a JWT's `exp` is.
  vi.setSystemTime(new Date('2026-11-22T10:00:00Z'));
  tokenReplies = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (url === '/api/auth/get-session')
        return Response.json({ user: { id: 'u1', email: EMAIL, name: 'Bea' } });
      if (url.startsWith('/api/jwt'))
        return (
          tokenReplies.shift() ?? (() => Response.json({ accessToken: tokenExpiringIn(15) }))
        )();
      return Response.json({});
    }),
  );
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('session', () => {
  it('is loading until the provider answers, then holds the user and a stored token', async () => {
    const session = await loadSession();
    expect(session.getState()).toEqual({ loading: true, user: null });
    await session.start();
    expect(session.getState()).toEqual({
      loading: false,
      user: { uid: 'u1', email: EMAIL, displayName: 'Bea' },
    });
    expect(localStorage.getItem('accessToken')).toMatch(/^eyJ/);
  });

  it('renews the token five minutes before it expires', async () => {
    const session = await loadSession();
    await session.start();
    expect(tokenCalls()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(10 * MINUTE - 1_000);
    expect(tokenCalls()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(tokenCalls()).toHaveLength(2);
  });

  it('retries a failed renewal after 30 s, doubling up to 16 minutes', async () => {
    const session = await loadSession();
    await session.start();
    const failing = () => new Response('{}', { status: 503 });
    tokenReplies = Array.from({ length: 8 }, () => failing);
    await vi.advanceTimersByTimeAsync(10 * MINUTE);
    const waits = [30, 60, 120, 240, 480, 960, 960].map((s) => s * 1000);
    for (const [i, wait] of waits.entries()) {
      const before = tokenCalls().length;
      await vi.advanceTimersByTimeAsync(wait - 1);
      expect(tokenCalls().length, `retry ${i + 1} too early`).toBe(before);
      await vi.advanceTimersByTimeAsync(1);
      expect(tokenCalls().length, `retry ${i + 1}`).toBe(before + 1);
    }
  });

  it('signs out: no user, no stored token, no more renewals', async () => {
    const session = await loadSession();
    await session.start();
    await session.signOut();
    expect(session.getState()).toEqual({ loading: false, user: null });
    expect(localStorage.getItem('accessToken')).toBeNull();
    await vi.advanceTimersByTimeAsync(60 * MINUTE);
    expect(tokenCalls()).toHaveLength(1);
  });
});
