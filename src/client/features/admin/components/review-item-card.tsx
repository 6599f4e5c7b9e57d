import { formatDate, formatDateTime, formatDollars } from '@client/lib/format';
import type { ReviewItem } from '@shared/risk';
import { REPORT_REASON_LABELS, type ReviewAction, type ReviewTarget } from '@shared/risk-names';
import { Link } from 'react-router';
import { REVIEW_TEXT } from '../texts';
import type { ReviewQuestion } from './review-confirm-dialog';

/** One decision the card asks for: what is sent, what it is about, and its question if any. */
export type Decision = {
  target: ReviewTarget;
  id: string;
  action: ReviewAction;
  /** What the toast names (the listing's title, the seller's name). */
  subject: string;
  /** The card it was taken on, so focus can go where the card was. */
  itemKey: string;
  /** Asked before it is taken (a withdrawal, a ban). */
  ask?: ReviewQuestion;
};

/** The id of an item's heading: where focus goes after a decision on it. */
export const reviewItemKey = (item: Pick<ReviewItem, 'kind' | 'id'>) =>
  `review-${item.kind}-${item.id}`;

const T = REVIEW_TEXT;

/**
 * One entry of the review queue as a card: what it is and why it is there (the signals in plain
 * words), the photos beside the ones they copy, the price beside the guide's, the seller's
 * history, the reports, and the decisions to take.
 */
export function ReviewItemCard({
  item,
  busy,
  onDecide,
}: {
  item: ReviewItem;
  busy: boolean;
  onDecide: (decision: Decision) => void;
}) {
  const key = reviewItemKey(item);
  const { seller, listing } = item;
  const sellerName = `${seller.name} (${seller.email})`;
  const banDecision: Decision = {
    target: 'account',
    id: item.kind === 'account' ? item.id : seller._id,
    action: 'ban',
    subject: seller.name,
    itemKey: key,
    ask: { question: T.banQuestion(seller.name, seller.email), means: T.banMeans, confirm: T.ban },
  };

  return (
    <article aria-labelledby={key} className="card card-border bg-base-100">
      <div className="card-body gap-4 p-4 sm:p-6">
        <header className="flex flex-wrap items-start justify-between gap-2">
          <h2 id={key} tabIndex={-1} className="min-w-0 text-xl font-bold break-words">
            <span className="badge badge-outline mr-2 align-middle">{T.kind[item.kind]}</span>
            <span className="sr-only">:</span> {item.title}
          </h2>
          <p className="flex flex-wrap gap-2">
            <span className="badge badge-neutral">{T.score(item.score)}</span>
            {item.held && <span className="badge badge-warning">{T.held}</span>}
          </p>
          {item.held && <p className="w-full text-sm">{T.heldHint}</p>}
        </header>

        {item.signals.length > 0 && (
          <div>
            <h3 className="font-semibold">{T.signals}</h3>
            <ul className="mt-1 list-disc space-y-1 pl-5">
              {item.signals.map((s) => (
                <li key={`${s.rule}-${s.at}`}>
                  {s.sentence}{' '}
                  <span className="text-sm text-current/80">({T.points(s.weight)})</span>
                </li>
              ))}
            </ul>
          </div>
        )}

        {item.photoMatches.length > 0 ? (
          <PhotoMatches item={item} />
        ) : (
          listing &&
          listing.photos.length > 0 && (
            <div>
              <h3 className="font-semibold">{T.photos}</h3>
              <ul className="mt-2 grid grid-cols-3 gap-2 sm:grid-cols-5">
                {listing.photos.map((photo, i) => (
                  <li key={photo}>
                    <img
                      src={photo}
                      alt={T.photoAlt(item.title, i + 1)}
                      loading="lazy"
                      className="aspect-square w-full rounded-box bg-base-200 object-cover"
                    />
                  </li>
                ))}
              </ul>
            </div>
          )
        )}

        <dl className="grid gap-x-4 gap-y-1 sm:grid-cols-[auto_1fr]">
          {listing && (
            <>
              <dt className="font-semibold">{T.price}</dt>
              <dd>
                {formatDollars(listing.price)}
                {listing.guidePrice !== null && listing.guidePrice > 0 && (
                  <> ({T.ofGuide(Math.round((listing.price / listing.guidePrice) * 100))})</>
                )}
              </dd>
              <dt className="font-semibold">{T.guidePrice}</dt>
              <dd>{listing.guidePrice === null ? T.noGuide : formatDollars(listing.guidePrice)}</dd>
            </>
          )}
          <dt className="font-semibold">{item.kind === 'listing' ? T.seller : T.account}</dt>
          <dd className="break-words">
            {sellerName}
            <br />
            <span className="text-sm">
              {T.history({
                joined: formatDate(seller.joinedAt),
                listings: seller.listings,
                sales: seller.sales,
                disputes: seller.disputes,
              })}
            </span>
          </dd>
        </dl>

        {item.reports.length > 0 && (
          <div>
            <h3 className="font-semibold">{T.reports(item.reports.length)}</h3>
            <ul className="mt-2 space-y-2">
              {item.reports.map((r) => (
                <li
                  key={r._id}
                  className="flex flex-wrap items-start justify-between gap-2 rounded-box bg-base-200 p-3"
                >
                  <div className="min-w-0 space-y-1">
                    <p className="font-semibold">{REPORT_REASON_LABELS[r.reason]}</p>
                    {r.note && (
                      <blockquote className="break-words whitespace-pre-wrap">{r.note}</blockquote>
                    )}
                    <p className="text-sm">
                      {T.reportBy(r.reporterName, formatDateTime(r.createdAt))}
                    </p>
                  </div>
                  <button
                    type="button"
                    className="btn btn-sm"
                    disabled={busy}
                    onClick={() =>
                      onDecide({
                        target: 'report',
                        id: r._id,
                        action: 'dismiss',
                        subject: r.reporterName,
                        itemKey: key,
                      })
                    }
                  >
                    {T.dismiss}{' '}
                    <span className="sr-only">{T.dismissWhose(r.reporterName, item.title)}</span>
                  </button>
                </li>
              ))}
            </ul>
          </div>
        )}

        <div className="card-actions flex-wrap">
          {/* A listing's clear accepts its own signals; an account's, the account's. */}
          <button
            type="button"
            className="btn btn-primary btn-sm"
            disabled={busy}
            onClick={() =>
              onDecide({
                target: item.kind,
                id: item.id,
                action: 'clear',
                subject: item.title,
                itemKey: key,
              })
            }
          >
            {item.held ? T.clearHeld : T.clear} <span className="sr-only">{item.title}</span>
          </button>
          {item.kind === 'listing' && (
            <button
              type="button"
              className="btn btn-warning btn-sm"
              disabled={busy}
              onClick={() =>
                onDecide({
                  target: 'listing',
                  id: item.id,
                  action: 'withdraw',
                  subject: item.title,
                  itemKey: key,
                  ask: {
                    question: T.withdrawQuestion(item.title),
                    means: T.withdrawMeans,
                    confirm: T.withdraw,
                  },
                })
              }
            >
              {T.withdraw} <span className="sr-only">{item.title}</span>
            </button>
          )}
          <button
            type="button"
            className="btn btn-error btn-sm"
            disabled={busy}
            onClick={() => onDecide(banDecision)}
          >
            {T.ban} <span className="sr-only">{T.banWhose(sellerName)}</span>
          </button>
        </div>
      </div>
    </article>
  );
}

function PhotoMatches({ item }: { item: ReviewItem }) {
  return (
    <div>
      <h3 className="font-semibold">{T.photoMatches}</h3>
      <ul className="mt-2 space-y-3">
        {item.photoMatches.map((m, i) => (
          <li key={`${m.photo}-${m.matchedPhoto}`} className="space-y-1">
            <div className="grid max-w-md grid-cols-2 gap-2">
              <figure className="flex flex-col items-stretch justify-start gap-1">
                <img
                  src={m.photo}
                  alt={T.photoAlt(item.title, i + 1)}
                  loading="lazy"
                  className="aspect-square w-full rounded-box bg-base-200 object-cover"
                />
                <figcaption className="text-sm font-semibold">{T.thisListing}</figcaption>
              </figure>
              <figure className="flex flex-col items-stretch justify-start gap-1">
                <img
                  src={m.matchedPhoto}
                  alt={T.matchedAlt(item.title, i + 1)}
                  loading="lazy"
                  className="aspect-square w-full rounded-box bg-base-200 object-cover"
                />
                <figcaption className="text-sm">
                  <span className="font-semibold">{T.matchesAnother}</span>
                  <br />
                  {m.matchedProductId ? (
                    <Link to={`/product/${m.matchedProductId}`} className="link">
                      {T.openOther} <span className="sr-only">{T.openOtherFor(i + 1)}</span>
                    </Link>
                  ) : (
                    T.otherGone
                  )}
                </figcaption>
              </figure>
            </div>
            <p className="text-sm">{T.sameness(m.distance)}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}
