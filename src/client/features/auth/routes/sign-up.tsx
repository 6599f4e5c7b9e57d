import { TextField } from '@client/components/ui/field';
import { IdentityError } from '@client/lib/auth/identity-client';
import { safeFrom, withFrom } from '@client/lib/auth/redirect';
import { session } from '@client/lib/auth/session';
import { PageHead } from '@client/lib/page-head';
import { toast } from '@client/lib/toast';
import { useHydrated } from '@client/lib/use-hydrated';
import { NAME_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@shared/constants';
import { type IdentityErrorCode, PASSWORD_PATTERN } from '@shared/identity';
import { TEXT } from '@shared/texts';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, NavLink, useLocation, useNavigate, useSearchParams } from 'react-router';
import { AuthError } from '../components/auth-error';
import { SocialButtons } from '../components/social-buttons';

type SignUpValues = { name: string; email: string; password: string };

const chooserClass = ({ isActive }: { isActive: boolean }) =>
  `btn flex-1 ${isActive ? 'btn-primary' : 'btn-outline btn-primary'}`;

/**
 * /signup and /signup/user sign up a User; /signup/seller a Seller. A `from` (a phone's
 * booking or wish-list prompt) is where the new account goes next, as after signing in.
 */
export function SignUpRoute() {
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const from = safeFrom(params.get('from'));
  const role = pathname.startsWith('/signup/seller') ? 'seller' : 'user';
  const navigate = useNavigate();
  const [error, setError] = useState<IdentityErrorCode | null>(null);
  const hydrated = useHydrated();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<SignUpValues>({ mode: 'onSubmit', reValidateMode: 'onChange' });

  const onSubmit = async ({ name, email, password }: SignUpValues) => {
    setError(null);
    try {
      await session.signUp(name.trim(), email.trim(), password, role);
      toast.success(TEXT.toast.registered);
      navigate(from, { replace: true });
    } catch (e) {
      setError(e instanceof IdentityError ? e.code : 'internal-error');
    }
  };

  return (
    <section className="mx-auto max-w-md space-y-4">
      <PageHead title="Sign up" />
      <h1 className="text-center text-2xl font-bold">{TEXT.signup.chooseHeading}</h1>
      <nav aria-label="Account type" className="flex gap-2">
        <NavLink
          to={withFrom('/signup/user', from)}
          className={() => chooserClass({ isActive: role === 'user' })}
        >
          {TEXT.signup.userAccount}
        </NavLink>
        <NavLink to={withFrom('/signup/seller', from)} className={chooserClass}>
          {TEXT.signup.sellerAccount}
        </NavLink>
      </nav>
      <div className="card bg-base-100 shadow-sm ring-1 ring-base-300">
        <div className="card-body">
          <h2 className="card-title">Sign up as {role === 'seller' ? 'Seller' : 'User'}</h2>
          <form onSubmit={handleSubmit(onSubmit)} noValidate className="flex flex-col gap-2">
            <TextField
              id="signup-name"
              label="Name"
              error={errors.name?.message}
              autoComplete="name"
              maxLength={NAME_MAX_LENGTH}
              registration={register('name', {
                required: TEXT.validation.nameRequired,
                validate: (v) => v.trim().length > 0 || TEXT.validation.nameRequired,
              })}
            />
            <TextField
              id="signup-email"
              label="Email"
              error={errors.email?.message}
              type="email"
              autoComplete="email"
              registration={register('email', { required: TEXT.validation.emailRequired })}
            />
            <TextField
              id="signup-password"
              label="Password"
              error={errors.password?.message}
              type="password"
              autoComplete="new-password"
              registration={register('password', {
                required: TEXT.validation.passwordRequired,
                minLength: { value: PASSWORD_MIN_LENGTH, message: TEXT.validation.passwordMin },
                pattern: { value: PASSWORD_PATTERN, message: TEXT.validation.passwordPattern },
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
              Sign up
            </button>
          </form>
          <p className="text-sm">
            Already have an account?{' '}
            <Link to={withFrom('/signin', from)} className="link link-primary">
              {TEXT.nav.signIn}
            </Link>
          </p>
          {role === 'user' && <SocialButtons accountType="user" from={from} onError={setError} />}
        </div>
      </div>
    </section>
  );
}
