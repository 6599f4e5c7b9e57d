import { DashboardPage } from '@client/components/layout/dashboard-page';
import { ConfirmDialog } from '@client/components/ui/confirm-dialog';
import { cell, DataTable } from '@client/components/ui/data-table';
import { describedBy, Field } from '@client/components/ui/field';
import { ShowMore } from '@client/components/ui/show-more';
import { ApiError } from '@client/lib/api-client';
import { toastError } from '@client/lib/feedback';
import { formatDate } from '@client/lib/format';
import { toast } from '@client/lib/toast';
import { useConfirmedAction } from '@client/lib/use-confirmed-action';
import type { BlockedImei } from '@shared/entities';
import { imeiDigits, imeiProblem } from '@shared/imei';
import { besideItsField } from '@shared/listing-input';
import { type QueryClient, useSuspenseInfiniteQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { blockedImeisQueryOptions, useBlockImei, useUnblockImei } from '../api/imeis';

/** The page's texts (not in the spec; issue 19). */
export const BLOCKED_IMEI_TEXT = {
  title: 'Blocked IMEIs',
  intro:
    'A phone reported stolen: block its IMEI. It cannot be listed, and its listings for sale are withdrawn at once (a sale already paid for goes on). Unblocking relists nothing.',
  imei: 'IMEI',
  imeiPlaceholder: '15 digits',
  imeiHint: 'Dial *#06# on the phone to see it',
  reason: 'Reason',
  reasonHint: 'Who reported it, and when',
  imeiRequired: 'Enter its 15 digits',
  reasonRequired: 'Say why the IMEI is blocked',
  block: 'Block',
  blocked: (last4: string, withdrawn: number) =>
    withdrawn === 0
      ? `The IMEI ending in ${last4} is blocked. No listing for sale had it.`
      : `The IMEI ending in ${last4} is blocked; ${withdrawn} ${withdrawn === 1 ? 'listing was' : 'listings were'} withdrawn.`,
  none: 'No IMEI is blocked.',
  masked: (last4: string) => `•••• ${last4}`,
  endingIn: (last4: string) => `IMEI ending in ${last4}`,
  unblock: 'Unblock',
  unblockQuestion: (last4: string) =>
    `Unblock the IMEI ending in ${last4}? It may be listed again; listings the block withdrew stay withdrawn.`,
  unblocked: (last4: string) => `The IMEI ending in ${last4} is unblocked.`,
  columns: {
    index: '#',
    imei: 'IMEI',
    reason: 'Reason',
    since: 'Blocked',
    unblock: 'Unblock',
  },
} as const;

const TEXT = BLOCKED_IMEI_TEXT;
const COLUMN = TEXT.columns;

export const blockedImeisLoader = (queryClient: QueryClient) => async () => {
  await queryClient.ensureInfiniteQueryData(blockedImeisQueryOptions());
  return null;
};

type Errors = { imei?: string; reason?: string };

/**
 * Blocked IMEIs (issue 19, decision 024): the admin blocks the IMEI of a phone reported stolen,
 * sees the blocked ones by their last four digits (the server keeps no more than a keyed hash of
 * the rest) and unblocks one.
 */
export function BlockedImeisRoute() {
  const query = useSuspenseInfiniteQuery(blockedImeisQueryOptions());
  const blocked = query.data.pages.flatMap((p) => p.data);
  const [imei, setImei] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Errors>({});

  const block = useBlockImei({
    onSuccess: ({ withdrawnCount }, sent) => {
      toast.success(TEXT.blocked(imeiDigits(sent.imei).slice(-4), withdrawnCount));
      setImei('');
      setReason('');
      setErrors({});
    },
    onError: (error) => {
      // The server's word on the IMEI (already blocked, not one) shows at its field.
      if (error instanceof ApiError && error.status < 500)
        setErrors({ imei: besideItsField(error.message) });
      else toastError(error);
    },
  });
  const unblock = useConfirmedAction(
    useUnblockImei({
      onSuccess: (_, id) => {
        const entry = blocked.find((b) => b._id === id);
        toast.success(TEXT.unblocked(entry?.imeiLast4 ?? ''));
      },
      onError: (error) => toastError(error),
    }),
    (id: string) => TEXT.unblockQuestion(blocked.find((b) => b._id === id)?.imeiLast4 ?? ''),
  );

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found: Errors = {};
    const problem = imei.trim() ? imeiProblem(imei) : TEXT.imeiRequired;
    if (problem) found.imei = besideItsField(problem);
    if (!reason.trim()) found.reason = TEXT.reasonRequired;
    setErrors(found);
    if (found.imei || found.reason) return;
    block.mutate({ imei: imeiDigits(imei), reason: reason.trim() });
  };

  return (
    <DashboardPage title={TEXT.title}>
      <p className="max-w-prose">{TEXT.intro}</p>
      <form
        className="grid max-w-3xl items-start gap-x-3 md:grid-cols-[14rem_1fr_auto]"
        noValidate
        onSubmit={onSubmit}
      >
        <Field id="block-imei" label={TEXT.imei} error={errors.imei}>
          <input
            id="block-imei"
            className="input w-full font-mono"
            inputMode="numeric"
            autoComplete="off"
            maxLength={40}
            placeholder={TEXT.imeiPlaceholder}
            value={imei}
            onChange={(e) => setImei(e.target.value)}
            {...(errors.imei
              ? describedBy('block-imei', errors.imei)
              : { 'aria-describedby': 'block-imei-hint' })}
          />
          {!errors.imei && (
            <p id="block-imei-hint" className="mt-1 text-sm text-current/70">
              {TEXT.imeiHint}
            </p>
          )}
        </Field>
        <Field id="block-reason" label={TEXT.reason} error={errors.reason}>
          <input
            id="block-reason"
            className="input w-full"
            maxLength={500}
            placeholder={TEXT.reasonHint}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            {...describedBy('block-reason', errors.reason)}
          />
        </Field>
        <button
          type="submit"
          className="btn btn-error mt-2 md:mt-10"
          disabled={block.isPending}
          aria-busy={block.isPending}
        >
          {TEXT.block}
        </button>
      </form>
      {blocked.length === 0 ? (
        <p>{TEXT.none}</p>
      ) : (
        <DataTable columns={Object.values(COLUMN)}>
          {blocked.map((b: BlockedImei, i) => (
            <tr key={b._id}>
              <th scope="row">{i + 1}</th>
              <td {...cell(COLUMN.imei, 'title')}>
                <span aria-hidden="true" className="font-mono">
                  {TEXT.masked(b.imeiLast4)}
                </span>
                <span className="sr-only">{TEXT.endingIn(b.imeiLast4)}</span>
              </td>
              <td {...cell(COLUMN.reason)} className="break-words">
                {b.reason}
              </td>
              <td {...cell(COLUMN.since)}>
                <time dateTime={b.blockedAt}>{formatDate(b.blockedAt)}</time>
              </td>
              <td {...cell(COLUMN.unblock, 'action')}>
                <button type="button" className="btn btn-sm" onClick={() => unblock.ask(b._id)}>
                  {TEXT.unblock}
                  <span className="sr-only"> {TEXT.endingIn(b.imeiLast4)}</span>
                </button>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <ShowMore query={query} />
      <ConfirmDialog {...unblock.dialog} />
    </DashboardPage>
  );
}
