import type { IdentityErrorCode } from '@shared/identity';

/**
 * Any failed sign-in: a wrong password and an unknown address are told alike, so the page says
 * nothing of whether an address has an account (decision 036).
 */
const NO_SIGN_IN = 'The e-mail address or the password is not right. Check both, then try again.';

/**
 * A plain sentence after each identity error code (the code text stays as the spec shows it).
 * Kept with the sign-in and sign-up pages, not in the shared texts, so that the home page's
 * first load does not carry them.
 */
export const IDENTITY_ERROR_SENTENCES = {
  'wrong-password': NO_SIGN_IN,
  'user-not-found': NO_SIGN_IN,
  'email-already-in-use':
    'An account already uses this e-mail address. Sign in instead, or use another address.',
  'too-many-requests': 'Too many tries. Please wait a few minutes, then try again.',
  'user-disabled': 'This account has been closed and can no longer sign in.',
  'invalid-email': 'This is not a valid e-mail address. Check it for a missing @ or dot.',
  'weak-password':
    'Choose another password: at least 6 characters, with an uppercase letter, a number and one of ! @ # $ % ^ & *.',
  'operation-not-allowed':
    'This way of signing in is not available here. Use your e-mail and password.',
  'network-request-failed': 'We could not reach the server. Check your connection, then try again.',
  'popup-closed-by-user':
    'Signing in with Google was cancelled. Try again, or use your e-mail and password.',
  'invalid-action-code': 'This link has expired or was used already. Ask for a new one below.',
  'internal-error': 'Something went wrong on our side. Please try again in a moment.',
} as const satisfies Record<IdentityErrorCode, string>;
