import { formatDateTime } from '@client/lib/format';
import type { Sale } from '@shared/entities';
import { SALE_TEXT } from '../texts';

type Step = { label: string; at: string | null; note?: string };

const T = SALE_TEXT.timeline;

/**
 * The sale's steps so far, each with its time, then the ones still to come on the usual road
 * (booked, paid, handed over); an ending (cancel, expiry, a reported problem) follows the last
 * step it came after.
 */
export function stepsOf(sale: Sale): Step[] {
  const steps: Step[] = [{ label: T.booked, at: sale.bookedAt }];
  const road: Step[] = [];
  if (sale.paidAt) steps.push({ label: T.paid, at: sale.paidAt });
  else road.push({ label: T.paid, at: null });
  if (sale.completedAt) steps.push({ label: T.completed, at: sale.completedAt });
  else
    road.push({
      label: T.completed,
      at: null,
      ...(sale.holdExpiresAt ? { note: T.until(formatDateTime(sale.holdExpiresAt)) } : {}),
    });
  if (sale.stage === 'cancelled')
    steps.push({ label: T.cancelled(sale.cancelledBy), at: sale.endedAt });
  if (sale.stage === 'expired') steps.push({ label: T.expired, at: sale.endedAt });
  if (sale.dispute) {
    steps.push({ label: T.reported, at: sale.dispute.reportedAt });
    if (sale.dispute.resolution)
      steps.push({
        label: sale.dispute.resolution === 'refunded' ? T.refunded : T.closed,
        at: sale.dispute.resolvedAt,
      });
  }
  // A sale that ended early has no road ahead.
  const ended = ['cancelled', 'expired'].includes(sale.stage) || sale.soldElsewhere;
  return ended ? steps : [...steps, ...road];
}

export function StageTimeline({ sale }: { sale: Sale }) {
  return (
    <section aria-labelledby="timeline-heading" className="space-y-3">
      <h2 id="timeline-heading" className="text-xl font-semibold">
        {T.title}
      </h2>
      <ol className="space-y-3 border-l-2 border-base-300 pl-5">
        {stepsOf(sale).map((step) => (
          <li key={step.label} className="relative">
            <span
              aria-hidden="true"
              className={`absolute top-1.5 -left-[1.65rem] h-3 w-3 rounded-full ${
                step.at ? 'bg-primary' : 'border-2 border-base-content/40 bg-base-100'
              }`}
            />
            <p className={step.at ? 'font-medium' : ''}>{step.label}</p>
            <p className="text-sm text-current/80">
              {step.at ? (
                <time dateTime={step.at}>{formatDateTime(step.at)}</time>
              ) : (
                [T.notYet, step.note].filter(Boolean).join(', ')
              )}
            </p>
          </li>
        ))}
      </ol>
    </section>
  );
}
