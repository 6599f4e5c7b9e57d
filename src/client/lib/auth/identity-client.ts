/** The identity provider's calls (Better Auth's REST endpoints under /api/auth), in the spec's vocabulary. */
import { type IdentityErrorCode, identityErrorCode } from '@shared/identity';

export class IdentityError extends Error {
  constructor(readonly code: IdentityErrorCode) {
    // The provider's message style; users are shown the code text (spec section 8).
    super(`Error (auth/${code}).`);
    this.name = 'IdentityError';
  }
}

export type IdentityAccount = { id: string; email: string; name: string };

const BASE = '/api/auth';

async function call<T>(path: string, init: { method: 'GET' | 'POST'; body?: unknown }): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${BASE}${path}`, {
      method: init.method,
      credentials: 'same-origin',
      headers: init.method === 'POST' ? { 'content-type': 'application/json' } : {},
      body: init.method === 'POST' ? JSON.stringify(init.body ?? {}) : undefined,
    });
  } catch {
    throw new IdentityError('network-request-failed');
  }
  const payload = (await response.json().catch(() => null)) as (T & { code?: string }) | null;
  if (!response.ok) throw new IdentityError(identityErrorCode(payload?.code, response.status));
  return payload as T;
}

export const identityClient = {
  async currentAccount(): Promise<IdentityAccount | null> {
    const session = await call<{ user: IdentityAccount } | null>('/get-session', { method: 'GET' });
    return session?.user ?? null;
  },
  async signIn(email: string, password: string): Promise<IdentityAccount> {
    return (
      await call<{ user: IdentityAccount }>('/sign-in/email', {
        method: 'POST',
        body: { email, password },
      })
    ).user;
  },
  async signUp(name: string, email: string, password: string): Promise<IdentityAccount> {
    return (
      await call<{ user: IdentityAccount }>('/sign-up/email', {
        method: 'POST',
        body: { name, email, password },
      })
    ).user;
  },
  /** Leaves for the provider's page; it comes back to `callbackURL` (or `errorCallbackURL` with ?error=). */
  async startSocial(
    provider: string,
    callbackURL: string,
    errorCallbackURL: string,
  ): Promise<void> {
    const { url } = await call<{ url: string }>('/sign-in/social', {
      method: 'POST',
      body: { provider, callbackURL, errorCallbackURL },
    });
    window.location.assign(url);
  },
  /** Mails a link to choose a new password; answers the same whether or not the address has an account. */
  async requestPasswordReset(email: string): Promise<void> {
    await call('/request-password-reset', {
      method: 'POST',
      body: { email, redirectTo: '/reset-password' },
    });
  },
  /** Sets a new password with the token of a reset mail's link; every session ends. */
  async resetPassword(token: string, newPassword: string): Promise<void> {
    await call('/reset-password', { method: 'POST', body: { token, newPassword } });
  },
  async signOut(): Promise<void> {
    await call('/sign-out', { method: 'POST' });
  },
};
