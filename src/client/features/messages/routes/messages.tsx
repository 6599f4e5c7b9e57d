import { DashboardPage } from '@client/components/layout/dashboard-page';
import { ensureCurrent } from '@client/lib/ensure-current';
import { formatDateTime } from '@client/lib/format';
import { type QueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { conversationsQueryOptions } from '../api/messages';
import { useConversationPolling } from '../components/use-conversation-polling';
import { MESSAGE_TEXT } from '../texts';

export const messagesLoader = (queryClient: QueryClient) => () =>
  ensureCurrent(queryClient, conversationsQueryOptions());

/** A buyer's or a seller's conversations, the latest first (issue 20). */
export function MessagesRoute() {
  const { data } = useSuspenseQuery(conversationsQueryOptions());
  useConversationPolling();
  return (
    <DashboardPage title={MESSAGE_TEXT.title}>
      {data.length === 0 ? (
        <p>{MESSAGE_TEXT.none}</p>
      ) : (
        <ul className="space-y-2">
          {data.map((c) => (
            <li key={c._id}>
              <Link
                to={`/dashboard/messages/${c._id}`}
                className={`block rounded-box border border-base-300 p-3 hover:bg-base-200 ${c.unread ? 'bg-primary/5' : ''}`}
              >
                <span className="flex flex-wrap items-baseline justify-between gap-2">
                  <span className="font-semibold">
                    {c.productName}{' '}
                    <span className="font-normal text-current/80">
                      {MESSAGE_TEXT.with(c.counterpartName)}
                    </span>
                  </span>
                  {c.unread && (
                    <span className="badge badge-primary badge-sm">{MESSAGE_TEXT.unread}</span>
                  )}
                </span>
                {c.lastMessage && (
                  <span className="mt-1 block text-sm">
                    <span className="line-clamp-2 break-words text-current/90">
                      {c.lastMessage.mine ? `${MESSAGE_TEXT.you}: ` : ''}
                      {c.lastMessage.body}
                    </span>
                    <time dateTime={c.lastMessage.at} className="text-xs text-current/70">
                      {formatDateTime(c.lastMessage.at)}
                    </time>
                  </span>
                )}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </DashboardPage>
  );
}
