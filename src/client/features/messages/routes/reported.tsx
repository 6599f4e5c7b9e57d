import { DashboardPage } from '@client/components/layout/dashboard-page';
import { ConfirmDialog } from '@client/components/ui/confirm-dialog';
import { call } from '@client/lib/api-client';
import { ensureCurrent } from '@client/lib/ensure-current';
import { toastError } from '@client/lib/feedback';
import { formatDateTime } from '@client/lib/format';
import { toast } from '@client/lib/toast';
import { useConfirmedAction } from '@client/lib/use-confirmed-action';
import { type QueryClient, useMutation, useSuspenseQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { reportedMessagesQueryOptions, useRefreshConversations } from '../api/messages';
import { MESSAGE_TEXT } from '../texts';

export const reportedLoader = (queryClient: QueryClient) => () =>
  ensureCurrent(queryClient, reportedMessagesQueryOptions());

/**
 * The admin's reported messages (issue 20): each with its reason, a way into its conversation,
 * and a ban of its sender (their account goes, and the address may not sign up again).
 */
export function ReportedRoute() {
  const { data } = useSuspenseQuery(reportedMessagesQueryOptions());
  const refresh = useRefreshConversations();
  const ban = useConfirmedAction(
    useMutation({
      mutationFn: (email: string) => call('banEmail', { body: { email } }),
      onSuccess: (_, email) => {
        toast.success(`${email} is banned and its account deleted.`);
        void refresh();
      },
      onError: (error) => toastError(error),
    }),
    (email) => `Ban ${email}? Its account is deleted.`,
  );

  return (
    <DashboardPage title={MESSAGE_TEXT.reportedTitle}>
      {data.length === 0 ? (
        <p>{MESSAGE_TEXT.reportedNone}</p>
      ) : (
        <ul className="space-y-3">
          {data.map((r) => (
            <li key={r._id} className="rounded-box border border-base-300 p-3">
              <p className="font-semibold">{MESSAGE_TEXT.about(r.productName)}</p>
              <blockquote className="my-2 rounded-box bg-base-200 p-2 text-sm break-words whitespace-pre-wrap">
                {r.body}
              </blockquote>
              <p className="text-sm">
                {r.senderName}
                {r.senderEmail ? ` (${r.senderEmail})` : ''} · {formatDateTime(r.reportedAt)}
              </p>
              <p className="text-sm">“{r.reason}”</p>
              <div className="mt-2 flex flex-wrap gap-2">
                <Link to={`/dashboard/messages/${r.conversationId}`} className="btn btn-sm">
                  {MESSAGE_TEXT.readConversation}
                </Link>
                {r.senderEmail && (
                  <button
                    type="button"
                    className="btn btn-error btn-outline btn-sm"
                    onClick={() => ban.ask(r.senderEmail as string)}
                  >
                    {MESSAGE_TEXT.banSender}
                    <span className="sr-only">: {r.senderEmail}</span>
                  </button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog {...ban.dialog} />
    </DashboardPage>
  );
}
