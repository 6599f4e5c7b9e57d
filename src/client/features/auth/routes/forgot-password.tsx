import { TextField } from '@client/components/ui/field';
import { IdentityError, identityClient } from '@client/lib/auth/identity-client';
import { PageHead } from '@client/lib/page-head';
import { useHydrated } from '@client/lib/use-hydrated';
import type { IdentityErrorCode } from '@shared/identity';
import { TEXT } from '@shared/texts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { AuthError } from '../components/auth-error';
import { ACCOUNT_TEXT } from '../texts';

type Values = { email: string };

/**
 * Forgot password (issue 20): a link to choose a new one is mailed. The answer is the same
 * whether or not an account uses the address, so the page tells nobody who has an account.
 */
export function ForgotPasswordRoute() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [error, setError] = useState<IdentityErrorCode | null>(null);
  const hydrated = useHydrated();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<Values>({ mode: 'onSubmit', reValidateMode: 'onChange' });

  const onSubmit = async ({ email }: Values) => {
    setError(null);
    try {
      await identityClient.requestPasswordReset(email.trim());
      setSentTo(email.trim());
    } catch (e) {
      setError(e instanceof IdentityError ? e.code : 'internal-error');
    }
  };

  return (
    <section className="mx-auto max-w-md">
      <PageHead title={ACCOUNT_TEXT.forgotTitle} />
      <div className="card bg-base-100 shadow-sm ring-1 ring-base-300">
        <div className="card-body">
          <h1 className="card-title text-2xl">{ACCOUNT_TEXT.forgotTitle}</h1>
          {sentTo ? (
            <div role="status" className="flex flex-col gap-2">
              <p>{ACCOUNT_TEXT.resetSent(sentTo)}</p>
              <p className="text-sm">{ACCOUNT_TEXT.resetSentHint}</p>
            </div>
          ) : (
            <form onSubmit={handleSubmit(onSubmit)} noValidate className="flex flex-col gap-2">
              <p className="text-sm">{ACCOUNT_TEXT.forgotIntro}</p>
              <TextField
                id="forgot-email"
                label="Email"
                error={errors.email?.message}
                type="email"
                autoComplete="email"
                registration={register('email', { required: TEXT.validation.emailRequired })}
              />
              <AuthError code={error} />
              <button
                type="submit"
                className="btn btn-primary mt-2"
                disabled={isSubmitting || !hydrated}
              >
                {isSubmitting && (
                  <span className="loading loading-spinner loading-sm" aria-hidden="true" />
                )}
                {ACCOUNT_TEXT.sendLink}
              </button>
            </form>
          )}
          <p className="text-sm">
            <Link to="/signin" className="link link-primary">
              {ACCOUNT_TEXT.backToSignIn}
            </Link>
          </p>
        </div>
      </div>
    </section>
  );
}
