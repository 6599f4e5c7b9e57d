import { formatDateTime } from '@client/lib/format';
import { useLiveRefresh } from '@client/lib/live-refresh';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Link } from 'react-router';
import {
  notificationsQueryOptions,
  unreadCountQueryOptions,
  useMarkRead,
} from '../api/notifications';
import { NOTIFICATION_TEXT } from '../texts';

/**
 * The bell in the navigation bar (issue 20): the unread count, told live (server-sent events) and
 * asked for every half minute and on coming back to the tab, and a panel of the latest notifications, each a link to its page. The
 * panel is a native popover: Escape and a click outside close it, focus returns to the bell.
 */
export function NotificationBell() {
  const panelId = useId();
  // The bell is on every signed-in page, once: the page's live stream is opened with it, and
  // refreshes whatever each event names (the count among them), on whichever server it happened.
  useLiveRefresh();
  const unread = useQuery(unreadCountQueryOptions()).data?.count ?? 0;
  // The list is asked for when the panel opens, not with every count.
  const list = useQuery({ ...notificationsQueryOptions(), enabled: false });
  const markRead = useMarkRead();
  const items = list.data ?? [];
  const close = () => document.getElementById(panelId)?.hidePopover?.();

  return (
    <>
      <button
        type="button"
        className="btn btn-square btn-ghost btn-sm relative"
        popoverTarget={panelId}
        aria-label={NOTIFICATION_TEXT.bell(unread)}
        onClick={() => void list.refetch()}
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          className="h-5 w-5 stroke-current"
          fill="none"
          strokeWidth="2"
        >
          <path d="M6 8a6 6 0 1 1 12 0c0 7 3 8 3 8H3s3-1 3-8M10 21h4" />
        </svg>
        {unread > 0 && (
          <span
            aria-hidden="true"
            className="badge badge-error badge-xs absolute -top-1 -right-1 min-w-4 px-1"
          >
            {unread > 99 ? '99+' : unread}
          </span>
        )}
      </button>
      <section
        id={panelId}
        popover="auto"
        aria-label={NOTIFICATION_TEXT.title}
        // No display class here: the browser hides a closed popover with `display: none`, which
        // any author display (a card's flex) would override.
        className="m-0 mt-14 mr-2 ml-auto w-[min(24rem,calc(100vw-1rem))] rounded-box border-0 bg-transparent p-0"
      >
        <div className="card-body gap-2 rounded-box bg-base-100 p-3 shadow-xl ring-1 ring-base-300">
          <div className="flex items-center justify-between gap-2">
            <h2 className="text-base font-bold">{NOTIFICATION_TEXT.title}</h2>
            {unread > 0 && (
              <button
                type="button"
                className="btn btn-ghost btn-xs"
                onClick={() => markRead.mutate(undefined)}
              >
                {NOTIFICATION_TEXT.markAllRead}
              </button>
            )}
          </div>
          {items.length === 0 ? (
            <p className="text-sm text-current/80">{NOTIFICATION_TEXT.empty}</p>
          ) : (
            <ul className="max-h-[60vh] space-y-1 overflow-y-auto">
              {items.map((n) => (
                <li key={n._id}>
                  <Link
                    to={n.link}
                    className={`block rounded-box p-2 text-sm hover:bg-base-200 ${n.read ? 'text-current/75' : 'bg-primary/5 font-medium'}`}
                    onClick={() => {
                      if (!n.read) markRead.mutate([n._id]);
                      close();
                    }}
                  >
                    {!n.read && <span className="sr-only">{NOTIFICATION_TEXT.unreadMark}: </span>}
                    {n.text}
                    <time
                      dateTime={n.createdAt}
                      className="block text-xs font-normal text-current/70"
                    >
                      {formatDateTime(n.createdAt)}
                    </time>
                  </Link>
                </li>
              ))}
            </ul>
          )}
          <Link to="/dashboard/settings" className="link link-primary text-sm" onClick={close}>
            {NOTIFICATION_TEXT.settingsLink}
          </Link>
        </div>
      </section>
    </>
  );
}
