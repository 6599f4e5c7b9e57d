import { describedBy, Field } from '@client/components/ui/field';
import { ApiError } from '@client/lib/api-client';
import { toast } from '@client/lib/toast';
import { TEXT } from '@shared/texts';
import { type FormEvent, useId, useState } from 'react';
import { useReportProblem } from '../api/sales';
import { SALE_TEXT } from '../texts';

/** The buyer says what is wrong with the phone after the handover; an admin decides. */
export function ReportForm({
  saleId,
  onDone,
  actions,
}: {
  saleId: string;
  onDone?: () => void;
  /** Buttons beside Send (a dialog's Cancel). */
  actions?: React.ReactNode;
}) {
  const id = `report-reason-${useId()}`;
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const report = useReportProblem({
    onSuccess: () => {
      toast.success(SALE_TEXT.reported);
      onDone?.();
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) return setError(TEXT.validation.fieldRequired);
    setError(null);
    report.mutate(
      { id: saleId, reason: reason.trim() },
      {
        onError: (e) => setError(e instanceof ApiError ? e.message : 'The report was not sent.'),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-3">
      <Field id={id} label={SALE_TEXT.reasonLabel} error={error ?? undefined}>
        <textarea
          id={id}
          className="textarea w-full"
          rows={4}
          maxLength={2000}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          {...describedBy(id, error ?? undefined)}
        />
      </Field>
      <div className="flex flex-wrap justify-end gap-2">
        {actions}
        <button type="submit" className="btn btn-primary" disabled={report.isPending}>
          {report.isPending && (
            <span className="loading loading-spinner loading-sm" aria-hidden="true" />
          )}
          {SALE_TEXT.send}
        </button>
      </div>
    </form>
  );
}
