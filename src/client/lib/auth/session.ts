/**
 * Auth state (spec section 4): loading until the provider reports the current user; sign-in,
 * sign-up and sign-out set loading again. Keeps the product server's access token in local
 * storage under 'accessToken', renews it 5 minutes before it expires, retrying with backoff
 * from 30 s up to 16 minutes.
 */
import { ACCESS_TOKEN_STORAGE_KEY } from '@shared/constants';
import type { IdentityUser } from '@shared/entities';
import { send } from '../transport';
import { type IdentityAccount, identityClient } from './identity-client';

export type AuthState = { loading: boolean; user: IdentityUser | null };
export type AccountType = 'user' | 'seller';

const RENEW_BEFORE_MS = 5 * 60 * 1000;
const BACKOFF_START_MS = 30_000;
const BACKOFF_MAX_MS = 16 * 60 * 1000;

/**
 * "Checking your session": the state before the provider answers, and the one a server-rendered
 * page was rendered in. One object, so that hydration, which compares the two, finds nothing
 * changed and re-renders nothing until the provider has answered.
 */
export const INITIAL_AUTH_STATE: AuthState = Object.freeze({ loading: true, user: null });

let state: AuthState = INITIAL_AUTH_STATE;
const listeners = new Set<() => void>();
let renewTimer: ReturnType<typeof setTimeout> | undefined;
let started: Promise<void> | undefined;

function set(next: AuthState): void {
  state = next;
  for (const listener of listeners) listener();
}

const toUser = (a: IdentityAccount): IdentityUser => ({
  uid: a.id,
  email: a.email,
  displayName: a.name,
});

/** The stored token; none while the server renders a page (it renders what anyone sees). */
export const getAccessToken = (): string | null =>
  typeof localStorage === 'undefined' ? null : localStorage.getItem(ACCESS_TOKEN_STORAGE_KEY);

/** A JWT's claims, read without verifying (the server verifies); null when it is not one. */
function claimsOf(token: string): Record<string, unknown> | null {
  try {
    const payload = JSON.parse(
      atob(token.split('.')[1]?.replace(/-/g, '+').replace(/_/g, '/') ?? ''),
    );
    return payload !== null && typeof payload === 'object' ? payload : null;
  } catch {
    return null;
  }
}

/** Seconds-since-epoch expiry of a JWT, read without verifying (the server verifies). */
function expiryOf(token: string): number | null {
  const exp = claimsOf(token)?.exp;
  return typeof exp === 'number' ? exp : null;
}

/**
 * The signed-in person's account id (the token's subject), to shape the page only: a phone's
 * seller sees no "Report" on their own phone. Null when signed out or while the server renders.
 */
export function accountIdOf(user: IdentityUser | null): string | null {
  const token = user ? getAccessToken() : null;
  const sub = token ? claimsOf(token)?.sub : null;
  return typeof sub === 'string' ? sub : null;
}

/** The identity provider's session cookie is the credential here: the token is what it gets. */
async function fetchToken(email: string): Promise<string> {
  const { accessToken } = (await send('getToken', { query: { email } })).data;
  localStorage.setItem(ACCESS_TOKEN_STORAGE_KEY, accessToken);
  scheduleRenewal(email, accessToken);
  return accessToken;
}

function scheduleRenewal(email: string, token: string, retryIn?: number): void {
  clearTimeout(renewTimer);
  const exp = expiryOf(token);
  const due = retryIn ?? (exp ? exp * 1000 - RENEW_BEFORE_MS - Date.now() : 0);
  renewTimer = setTimeout(
    () => {
      fetchToken(email).catch(() => {
        const next = Math.min((retryIn ?? BACKOFF_START_MS / 2) * 2, BACKOFF_MAX_MS);
        scheduleRenewal(email, token, next);
      });
    },
    Math.max(due, 0),
  );
}

function clearToken(): void {
  clearTimeout(renewTimer);
  localStorage.removeItem(ACCESS_TOKEN_STORAGE_KEY);
}

async function saveUserRecord(user: IdentityUser, type: AccountType): Promise<void> {
  const { acknowledged } = (
    await send('saveUser', {
      body: { email: user.email, name: user.displayName ?? user.email, type },
    })
  ).data;
  if (!acknowledged) throw new Error('The user record was not saved');
}

/** Runs `work` with the state loading, and settles the state whatever happens. */
async function withLoading<T>(
  work: () => Promise<T>,
  settle: () => IdentityUser | null,
): Promise<T> {
  set({ loading: true, user: state.user });
  try {
    return await work();
  } finally {
    set({ loading: false, user: settle() });
  }
}

export const session = {
  getState: (): AuthState => state,

  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },

  /** Asks the provider for the current user once; resolves when it has answered. */
  start(): Promise<void> {
    started ??= (async () => {
      let user: IdentityUser | null = null;
      try {
        const account = await identityClient.currentAccount();
        user = account ? toUser(account) : null;
        if (user) {
          const token = getAccessToken();
          const exp = token ? expiryOf(token) : null;
          if (token && exp && exp * 1000 - Date.now() > RENEW_BEFORE_MS)
            scheduleRenewal(user.email, token);
          else await fetchToken(user.email);
        } else clearToken();
      } catch (error) {
        console.warn('Could not restore the session', error);
      }
      set({ loading: false, user });
    })();
    return started;
  },

  /** The current user once the provider has answered (for route loaders). */
  async currentUser(): Promise<IdentityUser | null> {
    await session.start();
    return state.user;
  },

  async signIn(email: string, password: string): Promise<void> {
    let user: IdentityUser | null = state.user;
    await withLoading(
      async () => {
        user = toUser(await identityClient.signIn(email, password));
        await fetchToken(user.email);
      },
      () => user,
    );
  },

  /** Creates the account with its display name, saves the user record, then gets a token. */
  async signUp(name: string, email: string, password: string, type: AccountType): Promise<void> {
    let user: IdentityUser | null = state.user;
    await withLoading(
      async () => {
        user = toUser(await identityClient.signUp(name, email, password));
        await saveUserRecord(user, type);
        await fetchToken(user.email);
      },
      () => user,
    );
  },

  /** Back from Google: save the record with the role, then (once acknowledged) get a token. */
  async completeSocial(type: AccountType): Promise<void> {
    let user: IdentityUser | null = null;
    await withLoading(
      async () => {
        const account = await identityClient.currentAccount();
        if (!account) return;
        user = toUser(account);
        await saveUserRecord(user, type);
        await fetchToken(user.email);
      },
      () => user,
    );
  },

  async signOut(): Promise<void> {
    await withLoading(
      async () => {
        clearToken();
        try {
          await identityClient.signOut();
        } catch (error) {
          // Sign-out errors are only logged (spec section 8).
          console.error(error);
        }
      },
      () => null,
    );
  },

  /** A new access token for the signed-in user (after a 401), or null when there is none. */
  async renewToken(): Promise<string | null> {
    const user = state.user;
    if (!user) return null;
    try {
      return await fetchToken(user.email);
    } catch {
      return null;
    }
  },
};
