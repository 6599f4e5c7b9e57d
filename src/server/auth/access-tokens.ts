/**
 * The product server's access tokens: short-lived HS256 JWTs naming the account (`sub`, the
 * users row id) and the identity session they were issued for (`sid`). A token is good only
 * while that session lives, so signing out, deleting or banning the account ends it at once.
 */
import { errors, jwtVerify, SignJWT } from 'jose';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
const ISSUER = 'phone-market';

export type TokenSubject = { userId: string; sessionId: string };

export class AccessTokens {
  private readonly key: Uint8Array;

  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  issue({ userId, sessionId }: TokenSubject, now = Date.now()): Promise<string> {
    const iat = Math.floor(now / 1000);
    return new SignJWT({ sid: sessionId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(ISSUER)
      .setSubject(userId)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ACCESS_TOKEN_TTL_SECONDS)
      .sign(this.key);
  }

  /** The account and session a valid token names, or why it is not valid. */
  async verify(token: string): Promise<TokenSubject | { error: 'expired' | 'invalid' }> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: ISSUER,
        algorithms: ['HS256'],
      });
      return typeof payload.sub === 'string' && typeof payload.sid === 'string'
        ? { userId: payload.sub, sessionId: payload.sid }
        : { error: 'invalid' };
    } catch (err) {
      return { error: err instanceof errors.JWTExpired ? 'expired' : 'invalid' };
    }
  }
}
