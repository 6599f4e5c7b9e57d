/**
 * The identity provider's vocabulary of spec section 8: users see the code text alone
 * ('wrong-password'). One mapping from the provider's codes, for server and client.
 */
import { PASSWORD_MIN_LENGTH } from './constants';
import { TEXT } from './texts';

export const IDENTITY_ERROR_CODES = [
  'wrong-password',
  'user-not-found',
  'email-already-in-use',
  'too-many-requests',
  'user-disabled',
  'invalid-email',
  'weak-password',
  'operation-not-allowed',
  'network-request-failed',
  'popup-closed-by-user',
  /** Added (issue 20): a password-reset link that expired or was used. */
  'invalid-action-code',
  'internal-error',
] as const;
export type IdentityErrorCode = (typeof IDENTITY_ERROR_CODES)[number];

const FROM_PROVIDER: Record<string, IdentityErrorCode> = {
  INVALID_EMAIL_OR_PASSWORD: 'wrong-password',
  INVALID_PASSWORD: 'wrong-password',
  USER_NOT_FOUND: 'user-not-found',
  USER_ALREADY_EXISTS: 'email-already-in-use',
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: 'email-already-in-use',
  INVALID_EMAIL: 'invalid-email',
  PASSWORD_TOO_SHORT: 'weak-password',
  PASSWORD_TOO_LONG: 'weak-password',
  WEAK_PASSWORD: 'weak-password',
  TOO_MANY_REQUESTS: 'too-many-requests',
  ACCOUNT_BANNED: 'user-disabled',
  PROVIDER_NOT_FOUND: 'operation-not-allowed',
  OPERATION_NOT_ALLOWED: 'operation-not-allowed',
  ACCESS_DENIED: 'popup-closed-by-user',
  INVALID_TOKEN: 'invalid-action-code',
  access_denied: 'popup-closed-by-user',
};

export function identityErrorCode(
  providerCode: string | null | undefined,
  status?: number,
): IdentityErrorCode {
  if (providerCode && providerCode in FROM_PROVIDER)
    return FROM_PROVIDER[providerCode] as IdentityErrorCode;
  if (status === 429) return 'too-many-requests';
  if (status === 0) return 'network-request-failed';
  return 'internal-error';
}

/** Section 5: a lowercase and an uppercase letter, a digit and one of ! @ # $ % ^ & *. */
export const PASSWORD_PATTERN = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)(?=.*[!@#$%^&*]).*$/;

/** The section 5 message for a password that breaks a rule, or null when it keeps them all. */
export function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return TEXT.validation.passwordMin;
  if (!PASSWORD_PATTERN.test(password)) return TEXT.validation.passwordPattern;
  return null;
}

/**
 * Where a welcome mail's confirmation link lands (issue 31): a page that says the address is
 * confirmed, or, with `?error=`, that the link has expired or was used already.
 */
export const EMAIL_CONFIRMED_PATH = '/email-confirmed';
