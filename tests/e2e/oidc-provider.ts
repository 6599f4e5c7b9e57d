/**
 * A local OpenID Connect provider standing in for Google in browser tests (oidc-provider with
 * its development login page: any login name signs in, and the name is used as the e-mail).
 */
import Provider from 'oidc-provider';

export const OIDC_CLIENT = {
  id: 'e2e-google-client',
  secret: 'e2e-google-client-secret-0123456789',
};

export async function startOidcProvider(
  port: number,
  appOrigin: string,
): Promise<{ issuer: string; close: () => void }> {
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: OIDC_CLIENT.id,
        client_secret: OIDC_CLIENT.secret,
        redirect_uris: [
          `${appOrigin}/api/auth/callback/google`,
          `${appOrigin}/api/auth/oauth2/callback/google`,
        ],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    findAccount: async (_ctx, sub) => ({
      accountId: sub,
      claims: async () => ({
        sub,
        email: sub,
        email_verified: true,
        name: sub.split('@')[0]?.replace(/[._-]+/g, ' ') ?? sub,
      }),
    }),
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ['e2e-oidc-cookie-key-0123456789'] },
  });
  const server = provider.listen(port);
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return { issuer, close: () => server.close() };
}
