import { session } from '@client/lib/auth/session';
import { QueryClient } from '@tanstack/react-query';
import type { LoaderFunctionArgs } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buyerLoader } from './guards';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const args = (path: string) =>
  ({ request: new Request(`http://localhost${path}`), params: {} }) as LoaderFunctionArgs;

/** The buyer guard's answer for someone whose role checks answer `isAdmin` and `isSeller`. */
async function guard(user: { email: string } | null, isAdmin = false, isSeller = false) {
  vi.spyOn(session, 'currentUser').mockResolvedValue(
    user && { uid: 'u1', email: user.email, displayName: 'Someone' },
  );
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) =>
      Response.json(url.includes('/users/admin/') ? { isAdmin } : { isSeller }),
    ),
  );
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  try {
    return await buyerLoader(queryClient)(args('/dashboard/saved-searches'));
  } catch (thrown) {
    return thrown;
  }
}

const redirectTo = (answer: unknown) =>
  answer instanceof Response ? answer.headers.get('location') : answer;

describe('the buyer pages’ guard (issue 33)', () => {
  it('lets a buyer in', async () => {
    expect(await guard({ email: 'bea@example.com' })).toBeNull();
  });

  it('sends a seller or an admin to their own dashboard', async () => {
    expect(redirectTo(await guard({ email: 'sam@example.com' }, false, true))).toBe('/dashboard');
    expect(redirectTo(await guard({ email: 'ada@example.com' }, true))).toBe('/dashboard');
  });

  it('sends a visitor to sign in, to come back here', async () => {
    expect(redirectTo(await guard(null))).toBe(
      `/signin?from=${encodeURIComponent('/dashboard/saved-searches')}`,
    );
  });
});
