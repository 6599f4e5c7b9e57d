import { useSyncExternalStore } from 'react';
import { type AuthState, session } from './session';

export const useAuth = (): AuthState => useSyncExternalStore(session.subscribe, session.getState);
