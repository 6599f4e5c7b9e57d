import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

type Ok = { ok: boolean };

async function load() {
  vi.resetModules();
  const client = await import('./api-client');
  const { session } = await import('./auth/session');
  return { ...client, session };
}

beforeEach(() => localStorage.setItem('accessToken', 'old-token'));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('apiRequest', () => {
  it("sends the stored token as the spec's bearer header", async () => {
    const fetch = vi.fn(async () => Response.json({ ok: true }));
    vi.stubGlobal('fetch', fetch);
    const { apiGet } = await load();
    await apiGet<Ok>('/api/x');
    expect(fetch).toHaveBeenCalledWith(
      '/api/x',
      expect.objectContaining({
        headers: expect.objectContaining({ authorization: 'bearer old-token' }),
      }),
    );
  });

  it('renews the token once after a 401 and retries with the new one', async () => {
    const seen: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        const auth = (init.headers as Record<string, string>).authorization ?? '';
        seen.push(auth);
        return auth === 'bearer new-token'
          ? Response.json({ ok: true })
          : Response.json({ message: 'Access token expired' }, { status: 401 });
      }),
    );
    const { apiGet, session } = await load();
    vi.spyOn(session, 'renewToken').mockResolvedValue('new-token');
    await expect(apiGet<Ok>('/api/x')).resolves.toEqual({ ok: true });
    expect(seen).toEqual(['bearer old-token', 'bearer new-token']);
  });

  it('signs out and hands over to /signin when the server still refuses', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        Response.json({ message: 'This account no longer exists' }, { status: 401 }),
      ),
    );
    const { apiGet, session, setSessionExpiredHandler, ApiError } = await load();
    vi.spyOn(session, 'renewToken').mockResolvedValue('new-token');
    const signOut = vi.spyOn(session, 'signOut').mockResolvedValue();
    const expired = vi.fn();
    setSessionExpiredHandler(expired);
    const error = await apiGet<Ok>('/api/x').catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(401);
    expect(signOut).toHaveBeenCalledOnce();
    expect(expired).toHaveBeenCalledOnce();
  });
});
