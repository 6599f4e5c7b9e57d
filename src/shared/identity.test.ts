import { describe, expect, it } from 'vitest';
import { identityErrorCode, passwordProblem } from './identity';

describe('identityErrorCode', () => {
  it.each([
    ['INVALID_EMAIL_OR_PASSWORD', 401, 'wrong-password'],
    ['USER_NOT_FOUND', 401, 'user-not-found'],
    ['USER_ALREADY_EXISTS', 422, 'email-already-in-use'],
    ['TOO_MANY_REQUESTS', 429, 'too-many-requests'],
    // A limit answered by a layer that gives no provider code still reads as one.
    [undefined, 429, 'too-many-requests'],
    ['SOMETHING_NEW', 429, 'too-many-requests'],
    [undefined, 0, 'network-request-failed'],
    ['SOMETHING_NEW', 500, 'internal-error'],
  ])('maps %s (%i) to %s', (code, status, expected) => {
    expect(identityErrorCode(code, status)).toBe(expected);
  });
});

describe('passwordProblem', () => {
  it('accepts a password keeping every rule of section 5 and names the first broken one', () => {
    expect(passwordProblem('Phone-Market1!')).toBeNull();
    expect(passwordProblem('Ab1!')).toMatch(/6/);
    expect(passwordProblem('phonemarket')).not.toBeNull();
  });
});
