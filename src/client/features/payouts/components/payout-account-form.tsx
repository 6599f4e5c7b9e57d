import { TextField } from '@client/components/ui/field';
import { ApiError } from '@client/lib/api-client';
import { useAccountHoldHours } from '@client/lib/client-config';
import { formatDateTime } from '@client/lib/format';
import { toast } from '@client/lib/toast';
import { type ReactNode, useId, useState } from 'react';
import { type FieldPath, type UseFormRegisterReturn, useForm } from 'react-hook-form';
import { type AccountInput, startPayoutOnboarding, useSetPayoutAccount } from '../api/payouts';
import { PAYOUTS_TEXT } from '../texts';

type FormProps = {
  /** A change of an existing account: it is told that payouts will be held. */
  changing: boolean;
  onDone: () => void;
  /** Beside the submit button (Cancel, when the form was opened from a button). */
  actions?: ReactNode;
};

const PATTERNS = {
  routingNumber: /^\d{9}$/,
  accountNumber: /^\d{4,17}$/,
} as const;

/** What the seller typed, without the spaces people put in long numbers. */
const digitsOf = (typed: string) => typed.replace(/[\s-]/g, '');

/** A refusal's message, beside the field it names when it names one of this form's. */
function placeRefusal(
  error: unknown,
  setError: (name: FieldPath<AccountInput>, message: string, focus: boolean) => void,
): string | null {
  if (!(error instanceof ApiError)) return 'The payout account could not be saved.';
  let placed = false;
  for (const [path, message] of Object.entries(error.fields)) {
    if (path === 'routingNumber' || path === 'accountNumber' || path === 'password') {
      setError(path, message, !placed);
      placed = true;
    }
  }
  return placed ? null : error.message;
}

function ChangeWarning({ changing }: { changing: boolean }) {
  // The server's setting (24 hours unless changed); the form shows before the config loads too.
  const holdHours = useAccountHoldHours();
  if (!changing) return null;
  return (
    <p className="alert alert-warning text-sm" role="note">
      {PAYOUTS_TEXT.changeWarning(holdHours ?? 24)}
    </p>
  );
}

/**
 * The embedded processor's test bank account (routing and account numbers, then the password
 * again), with the numbers that are paid or refused. A change holds payouts: it says so before,
 * and after it says until when.
 */
export function BankAccountForm({ changing, onDone, actions }: FormProps) {
  const id = useId();
  const [refusal, setRefusal] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<AccountInput>({
    defaultValues: { routingNumber: '', accountNumber: '', password: '' },
  });
  const save = useSetPayoutAccount({
    onSuccess: (account) => {
      toast.success(
        account.payoutsHeldUntil
          ? PAYOUTS_TEXT.accountChanged(formatDateTime(account.payoutsHeldUntil))
          : PAYOUTS_TEXT.accountSaved,
      );
      onDone();
    },
  });

  const onSubmit = async (values: AccountInput) => {
    setRefusal(null);
    try {
      await save.mutateAsync({
        routingNumber: digitsOf(values.routingNumber),
        accountNumber: digitsOf(values.accountNumber),
        password: values.password,
      });
    } catch (error) {
      setRefusal(
        placeRefusal(error, (name, message, shouldFocus) =>
          setError(name, { type: 'server', message }, { shouldFocus }),
        ),
      );
    }
  };
  const matches = (pattern: RegExp, message: string) => ({
    required: message,
    validate: (typed: string) => pattern.test(digitsOf(typed)) || message,
  });

  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate className="max-w-md space-y-2">
      <ChangeWarning changing={changing} />
      <div className="rounded-box bg-base-200 p-3 text-sm">
        <p className="font-semibold">{PAYOUTS_TEXT.testBank}</p>
        <p>{PAYOUTS_TEXT.testBankHint}</p>
      </div>
      <TextField
        id={`${id}-routing`}
        label={PAYOUTS_TEXT.routingNumber}
        error={errors.routingNumber?.message}
        inputMode="numeric"
        autoComplete="off"
        registration={register(
          'routingNumber',
          matches(PATTERNS.routingNumber, PAYOUTS_TEXT.routingFormat),
        )}
      />
      <TextField
        id={`${id}-account`}
        label={PAYOUTS_TEXT.accountNumber}
        error={errors.accountNumber?.message}
        inputMode="numeric"
        autoComplete="off"
        registration={register(
          'accountNumber',
          matches(PATTERNS.accountNumber, PAYOUTS_TEXT.accountFormat),
        )}
      />
      <PasswordField
        id={`${id}-password`}
        error={errors.password?.message}
        registration={register('password', { required: PAYOUTS_TEXT.passwordRequired })}
      />
      {refusal && (
        <p role="alert" className="text-sm text-error">
          {refusal}
        </p>
      )}
      <div className="flex flex-wrap gap-2 pt-2">
        <button type="submit" className="btn btn-primary" disabled={isSubmitting}>
          {isSubmitting && (
            <span className="loading loading-spinner loading-sm" aria-hidden="true" />
          )}
          {PAYOUTS_TEXT.saveAccount}
        </button>
        {actions}
      </div>
    </form>
  );
}

function PasswordField({
  id,
  error,
  registration,
}: {
  id: string;
  error: string | undefined;
  registration: UseFormRegisterReturn;
}) {
  return (
    <div>
      <TextField
        id={id}
        label={PAYOUTS_TEXT.password}
        error={error}
        type="password"
        autoComplete="current-password"
        {...(error ? {} : { 'aria-describedby': `${id}-hint` })}
        registration={registration}
      />
      <p id={`${id}-hint`} className="mt-1 text-sm text-current/80">
        {PAYOUTS_TEXT.passwordHint}
      </p>
    </div>
  );
}

/**
 * Stripe Connect: the password again, then the browser goes to Stripe's onboarding, which
 * brings the seller back to this page.
 */
export function StripeOnboardingForm({ changing, actions }: Omit<FormProps, 'onDone'>) {
  const id = useId();
  const [refusal, setRefusal] = useState<string | null>(null);
  const [going, setGoing] = useState(false);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<{ password: string }>({ defaultValues: { password: '' } });

  const onSubmit = async ({ password }: { password: string }) => {
    setRefusal(null);
    try {
      const { url } = await startPayoutOnboarding(password);
      setGoing(true);
      window.location.assign(url);
    } catch (error) {
      const fields = error instanceof ApiError ? error.fields : {};
      if (fields.password) setError('password', { type: 'server', message: fields.password });
      else setRefusal(error instanceof ApiError ? error.message : 'Stripe could not be reached.');
    }
  };

  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate className="max-w-md space-y-2">
      <ChangeWarning changing={changing} />
      <p className="text-sm">{PAYOUTS_TEXT.stripeHint}</p>
      <PasswordField
        id={`${id}-password`}
        error={errors.password?.message}
        registration={register('password', { required: PAYOUTS_TEXT.passwordRequired })}
      />
      {refusal && (
        <p role="alert" className="text-sm text-error">
          {refusal}
        </p>
      )}
      {going && <p role="status">{PAYOUTS_TEXT.stripeGoing}</p>}
      <div className="flex flex-wrap gap-2 pt-2">
        <button type="submit" className="btn btn-primary" disabled={isSubmitting || going}>
          {(isSubmitting || going) && (
            <span className="loading loading-spinner loading-sm" aria-hidden="true" />
          )}
          {PAYOUTS_TEXT.stripeContinue}
        </button>
        {actions}
      </div>
    </form>
  );
}
