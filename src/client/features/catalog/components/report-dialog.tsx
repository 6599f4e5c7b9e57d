import { Modal } from '@client/components/ui/modal';
import { ApiError } from '@client/lib/api-client';
import { queryRoots } from '@client/lib/query-keys';
import { toast } from '@client/lib/toast';
import {
  REPORT_NOTE_MAX,
  REPORT_REASON_LABELS,
  REPORT_REASONS,
  type ReportReason,
} from '@shared/risk-names';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { type ReportBody, sendReport } from '../api/report';
import { REPORT_TEXT } from '../texts';

/**
 * Reporting a listing or a seller (issue 34): a reason from the list and an optional note. Loaded
 * only when opened, so a phone's page does not carry it. The server's refusal (already reported,
 * too many today) shows in the dialog, in its own words.
 */
export function ReportDialog({
  kind,
  id,
  name,
  onClose,
}: {
  kind: 'listing' | 'seller';
  id: string;
  /** The phone or the seller, as the page names them. */
  name: string;
  onClose: () => void;
}) {
  const uid = useId();
  const reasonsId = `report-reasons-${uid}`;
  const noteId = `report-note-${uid}`;
  const queryClient = useQueryClient();
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [note, setNote] = useState('');
  const [missingReason, setMissingReason] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const report = useMutation({
    mutationFn: (body: ReportBody) => sendReport(kind, id, body),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryRoots.reports });
      toast.success(REPORT_TEXT.sent);
      onClose();
    },
    onError: (error) => setRefusal(error instanceof ApiError ? error.message : REPORT_TEXT.notSent),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setRefusal(null);
    if (!reason) {
      setMissingReason(true);
      document.getElementById(`${reasonsId}-${REPORT_REASONS[0]}`)?.focus();
      return;
    }
    report.mutate({ reason, note: note.trim() });
  };

  return (
    <Modal
      open
      onClose={onClose}
      title={kind === 'listing' ? REPORT_TEXT.listingTitle : REPORT_TEXT.sellerTitle}
    >
      <form onSubmit={submit} noValidate className="space-y-4">
        <p className="text-sm break-words">{REPORT_TEXT.intro(name)}</p>
        <fieldset
          className="fieldset"
          aria-describedby={missingReason ? `${reasonsId}-error` : undefined}
        >
          <legend className="fieldset-legend">{REPORT_TEXT.reasons}</legend>
          {REPORT_REASONS.map((value) => (
            <label
              key={value}
              className="flex min-h-11 cursor-pointer items-center gap-3 rounded-box px-2 hover:bg-base-200"
            >
              <input
                id={`${reasonsId}-${value}`}
                type="radio"
                name={reasonsId}
                className="radio radio-primary radio-sm"
                value={value}
                checked={reason === value}
                aria-invalid={missingReason || undefined}
                onChange={() => {
                  setReason(value);
                  setMissingReason(false);
                }}
              />
              <span>{REPORT_REASON_LABELS[value]}</span>
            </label>
          ))}
          {missingReason && (
            <p id={`${reasonsId}-error`} role="alert" className="text-sm text-error">
              {REPORT_TEXT.chooseReason}
            </p>
          )}
        </fieldset>
        <div className="fieldset">
          <label htmlFor={noteId} className="fieldset-legend">
            {REPORT_TEXT.note}
          </label>
          <textarea
            id={noteId}
            className="textarea w-full"
            rows={3}
            maxLength={REPORT_NOTE_MAX}
            value={note}
            aria-describedby={`${noteId}-hint`}
            onChange={(event) => setNote(event.target.value)}
          />
          <p id={`${noteId}-hint`} className="text-xs text-current/80">
            {REPORT_TEXT.noteHint(REPORT_NOTE_MAX)}
          </p>
        </div>
        {refusal && (
          <p role="alert" className="alert alert-error alert-soft text-sm">
            {refusal}
          </p>
        )}
        <div className="modal-action">
          <button type="button" className="btn" onClick={onClose}>
            {REPORT_TEXT.cancel}
          </button>
          <button type="submit" className="btn btn-primary" disabled={report.isPending}>
            {report.isPending && (
              <span className="loading loading-spinner loading-sm" aria-hidden="true" />
            )}
            {REPORT_TEXT.send}
          </button>
        </div>
      </form>
    </Modal>
  );
}
