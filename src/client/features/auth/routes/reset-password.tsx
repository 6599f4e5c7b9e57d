import { TextField } from '@client/components/ui/field';
import { IdentityError, identityClient } from '@client/lib/auth/identity-client';
import { PageHead } from '@client/lib/page-head';
import { useHydrated } from '@client/lib/use-hydrated';
import { type IdentityErrorCode, passwordProblem } from '@shared/identity';
import { TEXT } from '@shared/texts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import { AuthError } from '../components/auth-error';
import { ACCOUNT_TEXT } from '../texts';

type Values = { password: string; confirm: string };

/**
 * The page a reset mail's link opens (issue 20): `?token=` from a good link, `?error=` from an
 * expired or used one. A new password keeps the sign-up rules; every session ends with it.
 */
export function ResetPasswordRoute() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const [error, setError] = useState<IdentityErrorCode | null>(
    token && !params.has('error') ? null : 'invalid-action-code',
  );
  const [done, setDone] = useState(false);
  const hydrated = useHydrated();
  const {
    register,
    handleSubmit,
    getValues,
    formState: { errors, isSubmitting },
  } = useForm<Values>({ mode: 'onSubmit', reValidateMode: 'onChange' });

  const onSubmit = async ({ password }: Values) => {
    if (!token) return;
    setError(null);
    try {
      await identityClient.resetPassword(token, password);
      setDone(true);
    } catch (e) {
      setError(e instanceof IdentityError ? e.code : 'internal-error');
    }
  };

  const usable = token !== null && error !== 'invalid-action-code';
  return (
    <section className="mx-auto max-w-md">
      <PageHead title={ACCOUNT_TEXT.resetTitle} noindex />
      <div className="card bg-base-100 shadow-sm ring-1 ring-base-300">
        <div className="card-body">
          <h1 className="card-title text-2xl">{ACCOUNT_TEXT.resetTitle}</h1>
          {done ? (
            <div role="status" className="flex flex-col gap-3">
              <p>{ACCOUNT_TEXT.resetDone}</p>
              <Link to="/signin" className="btn btn-primary">
                {TEXT.nav.signIn}
              </Link>
            </div>
          ) : usable ? (
            <form onSubmit={handleSubmit(onSubmit)} noValidate className="flex flex-col gap-2">
              <TextField
                id="reset-password"
                label={ACCOUNT_TEXT.newPassword}
                error={errors.password?.message}
                type="password"
                autoComplete="new-password"
                registration={register('password', {
                  required: TEXT.validation.passwordRequired,
                  validate: (value) => passwordProblem(value) ?? true,
                })}
              />
              <TextField
                id="reset-confirm"
                label={ACCOUNT_TEXT.confirmPassword}
                error={errors.confirm?.message}
                type="password"
                autoComplete="new-password"
                registration={register('confirm', {
                  required: TEXT.validation.passwordRequired,
                  validate: (value) => value === getValues('password') || ACCOUNT_TEXT.notSame,
                })}
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
                {ACCOUNT_TEXT.savePassword}
              </button>
            </form>
          ) : (
            <div className="flex flex-col gap-3">
              <AuthError code={error} />
              <Link to="/forgot-password" className="btn btn-primary">
                {ACCOUNT_TEXT.askAgain}
              </Link>
            </div>
          )}
        </div>
      </div>
    </section>
  );
}
