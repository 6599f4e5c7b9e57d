import { TextField } from '@client/components/ui/field';
import { IdentityError } from '@client/lib/auth/identity-client';
import { safeFrom, withFrom } from '@client/lib/auth/redirect';
import { session } from '@client/lib/auth/session';
import { PageHead } from '@client/lib/page-head';
import { useHydrated } from '@client/lib/use-hydrated';
import { type IdentityErrorCode, identityErrorCode } from '@shared/identity';
import { TEXT } from '@shared/texts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  Link,
  type LoaderFunctionArgs,
  redirect,
  useLoaderData,
  useNavigate,
  useSearchParams,
} from 'react-router';
import { AuthError } from '../components/auth-error';
import { SocialButtons } from '../components/social-buttons';
import { ACCOUNT_TEXT } from '../texts';

/**
 * Coming back from Google: save the user record with the role, get a token, then go to the
 * remembered page. Coming back from a failed or cancelled Google sign-in: show its code.
 */
export async function signInLoader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const from = safeFrom(params.get('from'));
  const role = params.get('social');
  if (role === 'user' || role === 'seller') {
    try {
      await session.completeSocial(role);
    } catch {
      return { error: 'internal-error' as IdentityErrorCode };
    }
    if (session.getState().user) return redirect(from);
  }
  if (params.has('social_failed'))
    return { error: identityErrorCode(params.get('error') ?? 'access_denied') };
  return { error: null };
}

type SignInValues = { email: string; password: string };

export function SignInRoute() {
  const loaded = useLoaderData<typeof signInLoader>();
  const [params] = useSearchParams();
  const from = safeFrom(params.get('from'));
  const navigate = useNavigate();
  const [error, setError] = useState<IdentityErrorCode | null>(loaded?.error ?? null);
  const hydrated = useHydrated();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<SignInValues>({ mode: 'onSubmit', reValidateMode: 'onChange' });

  const onSubmit = async ({ email, password }: SignInValues) => {
    setError(null);
    try {
      await session.signIn(email.trim(), password);
      navigate(from, { replace: true });
    } catch (e) {
      setError(e instanceof IdentityError ? e.code : 'internal-error');
    }
  };

  return (
    <section className="mx-auto max-w-md">
      <PageHead title={TEXT.nav.signIn} />
      <div className="card bg-base-100 shadow-sm ring-1 ring-base-300">
        <div className="card-body">
          <h1 className="card-title text-2xl">{TEXT.nav.signIn}</h1>
          <form onSubmit={handleSubmit(onSubmit)} noValidate className="flex flex-col gap-2">
            <TextField
              id="signin-email"
              label="Email"
              error={errors.email?.message}
              type="email"
              autoComplete="email"
              registration={register('email', { required: TEXT.validation.emailRequired })}
            />
            <TextField
              id="signin-password"
              label="Password"
              error={errors.password?.message}
              type="password"
              autoComplete="current-password"
              registration={register('password', { required: TEXT.validation.passwordRequired })}
            />
            <Link to="/forgot-password" className="link link-primary self-end text-sm">
              {ACCOUNT_TEXT.forgotLink}
            </Link>
            <AuthError code={error} />
            <button
              type="submit"
              className="btn btn-primary mt-2"
              disabled={isSubmitting || !hydrated}
            >
              {isSubmitting && (
                <span className="loading loading-spinner loading-sm" aria-hidden="true" />
              )}
              {TEXT.nav.signIn}
            </button>
          </form>
          <p className="text-sm">
            New to Phone Market?{' '}
            <Link to={withFrom('/signup', from)} className="link link-primary">
              Create an account
            </Link>
          </p>
          <SocialButtons accountType="user" from={from} onError={setError} />
        </div>
      </div>
    </section>
  );
}
