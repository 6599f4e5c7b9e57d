import { DashboardPage } from '@client/components/layout/dashboard-page';
import { describedBy, Field } from '@client/components/ui/field';
import { MessageForm } from '@client/components/ui/message-form';
import { Modal } from '@client/components/ui/modal';
import { ApiError } from '@client/lib/api-client';
import { session } from '@client/lib/auth/session';
import { formatDateTime } from '@client/lib/format';
import { toast } from '@client/lib/toast';
import type { Message } from '@shared/entities';
import { OFF_PLATFORM_WARNING } from '@shared/risk-names';
import { TEXT } from '@shared/texts';
import { type QueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { data, Link, type LoaderFunctionArgs, useParams } from 'react-router';
import {
  conversationQueryOptions,
  conversationsQueryOptions,
  useReportMessage,
  useSendMessage,
} from '../api/messages';
import { useConversationPolling } from '../components/use-conversation-polling';
import { MESSAGE_TEXT } from '../texts';

/** A conversation the viewer may not read is the 404 page, as a sale's is. */
export const conversationLoader =
  (queryClient: QueryClient) =>
  async ({ params }: LoaderFunctionArgs) => {
    if (!(await session.currentUser())) return null;
    try {
      await queryClient.fetchQuery(conversationQueryOptions(params.id ?? ''));
      // Opening it read it: the list and the menu's count say so.
      void queryClient.invalidateQueries({ queryKey: conversationsQueryOptions().queryKey });
    } catch (error) {
      if (error instanceof ApiError && [400, 403, 404].includes(error.status))
        throw data(null, { status: 404 });
      throw error;
    }
    return null;
  };

/** One conversation (issue 20): its messages, oldest first, told live; a reply; reports. */
export function ConversationRoute() {
  const { id = '' } = useParams();
  const { data: c } = useSuspenseQuery(conversationQueryOptions(id));
  const send = useSendMessage(id);
  const [reporting, setReporting] = useState<Message | null>(null);
  const end = useRef<HTMLLIElement>(null);
  useConversationPolling();
  const count = c.messages.length;
  // The newest message in view when the page opens and when one arrives.
  useEffect(() => {
    if (count > 0) end.current?.scrollIntoView({ block: 'nearest' });
  }, [count]);

  return (
    <DashboardPage title={MESSAGE_TEXT.about(c.productName)}>
      <p className="text-sm">
        {c.side === 'admin'
          ? MESSAGE_TEXT.adminReading(c.buyerName, c.sellerName)
          : MESSAGE_TEXT.with(c.counterpartName)}
        {c.productId && (
          <>
            {' · '}
            <Link to={`/product/${c.productId}`} className="link">
              {MESSAGE_TEXT.phonePage}
            </Link>
          </>
        )}
      </p>
      <ol aria-label={MESSAGE_TEXT.title} className="space-y-3">
        {c.messages.map((m) => (
          <li key={m._id} className={`chat ${m.mine ? 'chat-end' : 'chat-start'}`}>
            <div className="chat-header text-xs">
              {m.mine ? MESSAGE_TEXT.you : m.senderName}{' '}
              <time dateTime={m.at} className="text-current/70">
                {formatDateTime(m.at)}
              </time>
            </div>
            <div
              className={`chat-bubble break-words whitespace-pre-wrap ${m.mine ? 'chat-bubble-primary' : ''}`}
            >
              {m.body}
            </div>
            <div className={`chat-footer text-xs ${m.offPlatform ? 'flex-col items-start' : ''}`}>
              {m.offPlatform && <OffPlatformWarning />}
              {m.reported ? (
                <span className="badge badge-warning badge-xs">{MESSAGE_TEXT.reportedMark}</span>
              ) : (
                !m.mine &&
                c.side !== 'admin' && (
                  <button
                    type="button"
                    className="btn btn-ghost btn-xs"
                    onClick={() => setReporting(m)}
                  >
                    {MESSAGE_TEXT.report}
                    <span className="sr-only">: {m.body.slice(0, 40)}</span>
                  </button>
                )
              )}
            </div>
          </li>
        ))}
        <li ref={end} aria-hidden="true" />
      </ol>
      {c.side !== 'admin' && (
        <MessageForm
          paid={c.paid}
          pending={send.isPending}
          send={(body) => send.mutateAsync(body)}
        />
      )}
      <Modal
        open={reporting !== null}
        onClose={() => setReporting(null)}
        title={MESSAGE_TEXT.reportTitle}
      >
        {reporting && <ReportForm message={reporting} onDone={() => setReporting(null)} />}
      </Modal>
    </DashboardPage>
  );
}

/**
 * The warning a message asking to pay or talk outside the marketplace is delivered with (issue
 * 34; the server flags it for its receiver only), read right after it. Not a live alert: it is
 * part of the message, and would otherwise be announced again at every refresh.
 */
function OffPlatformWarning() {
  return (
    <p className="alert alert-warning mt-1 max-w-prose text-sm">
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        className="h-5 w-5 shrink-0 stroke-current"
        fill="none"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <path d="M12 3 2 20h20L12 3z" />
        <path d="M12 10v4M12 17h.01" />
      </svg>
      <span>
        <span className="sr-only">{MESSAGE_TEXT.warning}:</span> {OFF_PLATFORM_WARNING}
      </span>
    </p>
  );
}

function ReportForm({ message, onDone }: { message: Message; onDone: () => void }) {
  const id = `report-${useId()}`;
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const report = useReportMessage();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) return setError(TEXT.validation.fieldRequired);
    report.mutate(
      { id: message._id, reason: reason.trim() },
      {
        onSuccess: () => {
          toast.success(MESSAGE_TEXT.reported);
          onDone();
        },
        onError: (e) => setError(e instanceof ApiError ? e.message : 'The report was not sent.'),
      },
    );
  };
  return (
    <form onSubmit={submit} noValidate className="space-y-3">
      <blockquote className="rounded-box bg-base-200 p-3 text-sm break-words">
        {message.body}
      </blockquote>
      <Field id={id} label={MESSAGE_TEXT.reportReason} error={error ?? undefined}>
        <textarea
          id={id}
          className="textarea w-full"
          rows={3}
          maxLength={500}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          {...describedBy(id, error ?? undefined)}
        />
      </Field>
      <div className="flex justify-end gap-2">
        <button type="button" className="btn btn-ghost" onClick={onDone}>
          {TEXT.confirm.cancel}
        </button>
        <button type="submit" className="btn btn-primary" disabled={report.isPending}>
          {MESSAGE_TEXT.report}
        </button>
      </div>
    </form>
  );
}
