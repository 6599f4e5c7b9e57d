import { useSyncExternalStore } from 'react';
import { type AuthState, session } from './session';

/**
 * The server renders pages before anyone's session is known, and the browser's first render
 * must match that HTML, so both start from "checking your session".
 */
const SERVER_STATE: AuthState = { loading: true, user: null };

export const useAuth = (): AuthState =>
  useSyncExternalStore(session.subscribe, session.getState, () => SERVER_STATE);
