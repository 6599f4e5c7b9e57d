/** The product server's access tokens: short-lived HS256 JWTs naming the caller's e-mail. */
import { errors, jwtVerify, SignJWT } from 'jose';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
const ISSUER = 'phone-market';

export class AccessTokens {
  private readonly key: Uint8Array;

  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  issue(email: string, now = Date.now()): Promise<string> {
    const iat = Math.floor(now / 1000);
    return new SignJWT({ email })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(ISSUER)
      .setSubject(email)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ACCESS_TOKEN_TTL_SECONDS)
      .sign(this.key);
  }

  /** The e-mail a valid token names, or why it is not valid. */
  async verify(token: string): Promise<{ email: string } | { error: 'expired' | 'invalid' }> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: ISSUER,
        algorithms: ['HS256'],
      });
      return typeof payload.email === 'string' ? { email: payload.email } : { error: 'invalid' };
    } catch (err) {
      return { error: err instanceof errors.JWTExpired ? 'expired' : 'invalid' };
    }
  }
}
