import type { IdentityUser } from '@shared/entities';
import { useSyncExternalStore } from 'react';
import { type AuthState, INITIAL_AUTH_STATE, session } from './session';

/**
 * The server renders pages before anyone's session is known, and the browser's first render
 * must match that HTML, so both start from "checking your session": the very object the
 * session starts with, so that the end of hydration re-renders nothing (issue 23).
 */
const serverState = (): AuthState => INITIAL_AUTH_STATE;

export const useAuth = (): AuthState =>
  useSyncExternalStore(session.subscribe, session.getState, serverState);

const userOf = (): IdentityUser | null => session.getState().user;
const noUser = (): IdentityUser | null => null;

/**
 * The signed-in user alone, null while the session is checked and when signed out. A component
 * that shows nothing different while the session is checked reads this: a visitor's session
 * resolving to no one then re-renders nothing (a brand page's twenty cards, issue 23).
 */
export const useAuthUser = (): IdentityUser | null =>
  useSyncExternalStore(session.subscribe, userOf, noUser);
