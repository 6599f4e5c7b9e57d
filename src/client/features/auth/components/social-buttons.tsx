import { IdentityError, identityClient } from '@client/lib/auth/identity-client';
import { clientConfigQueryOptions } from '@client/lib/client-config';
import { ensureCurrent } from '@client/lib/ensure-current';
import type { IdentityErrorCode } from '@shared/identity';
import { useQueryClient } from '@tanstack/react-query';

type SocialButtonsProps = {
  /** The account type a Google sign-up creates; a sign-in saves 'user' (an existing record keeps its type). */
  accountType: 'user' | 'seller';
  from: string;
  onError: (code: IdentityErrorCode) => void;
};

/** Social sign-in: only Google works; the others answer operation-not-allowed. */
export function SocialButtons({ accountType, from, onError }: SocialButtonsProps) {
  const queryClient = useQueryClient();

  const google = async () => {
    // Waits for the configuration when a quick click comes before it has loaded.
    const config = await ensureCurrent(queryClient, clientConfigQueryOptions()).catch(
      () => undefined,
    );
    if (!config) return onError('network-request-failed');
    if (!config.identity.google) return onError('operation-not-allowed');
    const back = (extra: string) => `/signin?${extra}&from=${encodeURIComponent(from)}`;
    try {
      await identityClient.startSocial(
        'google',
        back(`social=${accountType}`),
        back('social_failed=google'),
      );
    } catch (error) {
      onError(error instanceof IdentityError ? error.code : 'internal-error');
    }
  };

  return (
    <div className="flex flex-col gap-2">
      <div className="divider">OR</div>
      <button type="button" className="btn btn-outline" onClick={google}>
        <svg aria-hidden="true" viewBox="0 0 48 48" className="h-5 w-5">
          <path
            fill="#FFC107"
            d="M43.6 20.1H42V20H24v8h11.3C33.7 32.7 29.2 36 24 36c-6.6 0-12-5.4-12-12s5.4-12 12-12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 12.9 4 4 12.9 4 24s8.9 20 20 20 20-8.9 20-20c0-1.3-.1-2.6-.4-3.9z"
          />
          <path
            fill="#FF3D00"
            d="m6.3 14.7 6.6 4.8C14.7 15.1 19 12 24 12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 16.3 4 9.7 8.3 6.3 14.7z"
          />
          <path
            fill="#4CAF50"
            d="M24 44c5.2 0 9.9-2 13.4-5.2l-6.2-5.2C29.2 35.1 26.7 36 24 36c-5.2 0-9.6-3.3-11.3-8l-6.5 5C9.5 39.6 16.2 44 24 44z"
          />
          <path
            fill="#1976D2"
            d="M43.6 20.1H42V20H24v8h11.3c-.8 2.2-2.2 4.2-4.1 5.6l6.2 5.2C37 39.2 44 34 44 24c0-1.3-.1-2.6-.4-3.9z"
          />
        </svg>
        Continue with Google
      </button>
      <button
        type="button"
        className="btn btn-outline"
        onClick={() => onError('operation-not-allowed')}
      >
        Continue with GitHub
      </button>
    </div>
  );
}
