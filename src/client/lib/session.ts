/** The product server's access token, kept in local storage under the spec's key. */
import { ACCESS_TOKEN_STORAGE_KEY } from '@shared/constants';

export const getAccessToken = (): string | null => localStorage.getItem(ACCESS_TOKEN_STORAGE_KEY);

export function signOut(): void {
  try {
    localStorage.removeItem(ACCESS_TOKEN_STORAGE_KEY);
  } catch (error) {
    // Sign-out errors are only logged (spec section 8).
    console.error(error);
  }
}
