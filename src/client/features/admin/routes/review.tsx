import { DashboardPage } from '@client/components/layout/dashboard-page';
import { ensureCurrent } from '@client/lib/ensure-current';
import { toastError } from '@client/lib/feedback';
import { toast } from '@client/lib/toast';
import type { ReviewItem } from '@shared/risk';
import { type QueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, type LoaderFunctionArgs, useSearchParams } from 'react-router';
import { reviewQueueQueryOptions, reviewRecordsQueryOptions, useReviewAction } from '../api/review';
import { ReviewConfirmDialog } from '../components/review-confirm-dialog';
import { ReviewDecisions } from '../components/review-decisions';
import { type Decision, ReviewItemCard, reviewItemKey } from '../components/review-item-card';
import { REVIEW_TEXT } from '../texts';

const T = REVIEW_TEXT;

type View = 'queue' | 'decisions';
const viewOf = (search: URLSearchParams): View =>
  search.get('show') === 'decisions' ? 'decisions' : 'queue';

export const reviewLoader =
  (queryClient: QueryClient) =>
  async ({ request }: LoaderFunctionArgs) => {
    const view = viewOf(new URL(request.url).searchParams);
    // The queue always: its count names its tab.
    await Promise.all([
      ensureCurrent(queryClient, reviewQueueQueryOptions()),
      view === 'decisions' && queryClient.ensureInfiniteQueryData(reviewRecordsQueryOptions()),
    ]);
    return null;
  };

/**
 * The admin's Review queue (issue 34): listings and accounts ordered by risk, each with why it is
 * here and the decisions to take on it; and the record of every decision taken.
 */
export function ReviewRoute() {
  const [search] = useSearchParams();
  const view = viewOf(search);
  const { data: items, dataUpdatedAt } = useSuspenseQuery(reviewQueueQueryOptions());
  return (
    <DashboardPage title={T.title}>
      <nav aria-label={T.views} className="join">
        <Link
          to={{ search: '' }}
          aria-current={view === 'queue' ? 'page' : undefined}
          className={`btn join-item btn-sm ${view === 'queue' ? 'btn-primary' : ''}`}
        >
          {T.queueCount(items.length)}
        </Link>
        <Link
          to={{ search: '?show=decisions' }}
          aria-current={view === 'decisions' ? 'page' : undefined}
          className={`btn join-item btn-sm ${view === 'decisions' ? 'btn-primary' : ''}`}
        >
          {T.decisions}
        </Link>
      </nav>
      {view === 'decisions' ? (
        <>
          <h2 className="sr-only">{T.decisions}</h2>
          <ReviewDecisions />
        </>
      ) : (
        <ReviewQueue items={items} updatedAt={dataUpdatedAt} />
      )}
    </DashboardPage>
  );
}

function ReviewQueue({ items, updatedAt }: { items: ReviewItem[]; updatedAt: number }) {
  const [asked, setAsked] = useState<Decision | null>(null);
  // Where focus goes once a decision is taken and the queue shown as read again after it (newer
  // than `before`): the card it was taken on if still there, else the one now in its place, else
  // the empty queue's words.
  const [refocus, setRefocus] = useState<{ key: string; index: number; before: number } | null>(
    null,
  );
  const list = useRef<HTMLOListElement>(null);
  const empty = useRef<HTMLParagraphElement>(null);
  const action = useReviewAction({ onError: (error) => toastError(error) });

  const take = (decision: Decision, note = '') => {
    const { target, id, action: what, subject, itemKey } = decision;
    const before = updatedAt;
    action.mutate(
      { target, id, action: what, note },
      {
        onSuccess: () => {
          toast.success(T.done[what](subject));
          const index = items.findIndex((i) => reviewItemKey(i) === itemKey);
          setRefocus({ key: itemKey, index, before });
        },
        onSettled: () => setAsked(null),
      },
    );
  };

  useEffect(() => {
    if (!refocus || asked || updatedAt <= refocus.before) return;
    const headings = list.current?.querySelectorAll<HTMLElement>('h2[tabindex]') ?? [];
    const target =
      document.getElementById(refocus.key) ??
      headings[Math.min(Math.max(refocus.index, 0), headings.length - 1)] ??
      empty.current;
    target?.focus();
    setRefocus(null);
  }, [refocus, asked, updatedAt]);

  if (items.length === 0)
    return (
      <div className="space-y-1">
        <p ref={empty} tabIndex={-1} className="text-lg font-semibold">
          {T.empty}
        </p>
        <p>{T.emptyHint}</p>
      </div>
    );

  return (
    <>
      <ol ref={list} aria-label={T.listLabel} className="space-y-4">
        {items.map((item) => (
          <li key={reviewItemKey(item)}>
            <ReviewItemCard
              item={item}
              busy={action.isPending}
              onDecide={(decision) => (decision.ask ? setAsked(decision) : take(decision))}
            />
          </li>
        ))}
      </ol>
      <ReviewConfirmDialog
        asked={asked?.ask ?? null}
        busy={action.isPending}
        onCancel={() => setAsked(null)}
        onConfirm={(note) => asked && take(asked, note)}
      />
    </>
  );
}
