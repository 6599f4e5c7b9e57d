import { describedBy, Field } from '@client/components/ui/field';
import { ApiError } from '@client/lib/api-client';
import { formatDateTime } from '@client/lib/format';
import { toast } from '@client/lib/toast';
import type { Sale } from '@shared/entities';
import { type FormEvent, useId, useState } from 'react';
import { useHandOver } from '../api/sales';
import { SALE_TEXT } from '../texts';

/**
 * The seller enters the six-digit code the buyer gives at the meeting. A wrong code shows the
 * server's answer (how many tries are left, or how long the code is locked).
 */
export function HandoverForm({
  sale,
  onDone,
  actions,
}: {
  sale: Pick<Sale, '_id' | 'handoverLockedUntil'>;
  onDone?: () => void;
  /** Buttons beside the submit button (a dialog's Cancel). */
  actions?: React.ReactNode;
}) {
  const id = `handover-code-${useId()}`;
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const handOver = useHandOver({
    onSuccess: () => {
      toast.success(SALE_TEXT.handedOver);
      onDone?.();
    },
  });
  const locked = sale.handoverLockedUntil;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const digits = code.trim();
    if (!/^\d{6}$/.test(digits)) return setError(SALE_TEXT.codeFormat);
    setError(null);
    handOver.mutate(
      { id: sale._id, code: digits },
      {
        onError: (e) =>
          setError(e instanceof ApiError ? e.message : 'The handover was not confirmed.'),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-3">
      <p className="text-sm">{SALE_TEXT.sellerHint}</p>
      {locked && (
        <p className="text-sm font-medium text-error">
          {SALE_TEXT.lockedUntil(formatDateTime(locked))}
        </p>
      )}
      <Field id={id} label={SALE_TEXT.codeLabel} error={error ?? undefined}>
        <input
          id={id}
          className="input input-lg w-48 font-mono tracking-[0.3em]"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          value={code}
          onChange={(event) => setCode(event.target.value.replace(/\D/g, ''))}
          {...describedBy(id, error ?? undefined)}
        />
      </Field>
      <div className="flex flex-wrap gap-2">
        {actions}
        <button type="submit" className="btn btn-primary" disabled={handOver.isPending}>
          {handOver.isPending && (
            <span className="loading loading-spinner loading-sm" aria-hidden="true" />
          )}
          {SALE_TEXT.handover}
        </button>
      </div>
    </form>
  );
}
