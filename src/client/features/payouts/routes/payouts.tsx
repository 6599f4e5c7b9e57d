import { DashboardPage } from '@client/components/layout/dashboard-page';
import { BarChart } from '@client/components/ui/bar-chart';
import { session } from '@client/lib/auth/session';
import { useAuth } from '@client/lib/auth/use-auth';
import { clientConfigQueryOptions } from '@client/lib/client-config';
import { ensureCurrent } from '@client/lib/ensure-current';
import { formatDate, formatDateTime, formatDollars, formatMoney } from '@client/lib/format';
import type { Payout, PayoutAccount, PayoutSummary } from '@shared/entities';
import { type QueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { payoutsQueryOptions } from '../api/payouts';
import { BankAccountForm, StripeOnboardingForm } from '../components/payout-account-form';
import { PAYOUTS_TEXT } from '../texts';

export const payoutsLoader = (queryClient: QueryClient) => async () => {
  const user = await session.currentUser();
  // Signed out: the dashboard's own loader sends the visitor to sign in.
  if (!user) return null;
  await Promise.all([
    ensureCurrent(queryClient, payoutsQueryOptions(user.email)),
    ensureCurrent(queryClient, clientConfigQueryOptions()),
  ]);
  return null;
};

/** A week's Monday ('2026-11-23') as the chart's axis names it: 'Nov 23'. */
const weekLabel = (weekStart: string) => formatDate(`${weekStart}T12:00:00Z`).replace(/, \d+$/, '');

function Figure({ label, amount, hint }: { label: string; amount: number; hint: string }) {
  return (
    <div className="rounded-box bg-base-200 p-4">
      <dt className="text-sm font-semibold">{label}</dt>
      <dd
        className={`text-xl font-bold tabular-nums sm:text-2xl ${amount < 0 ? 'text-error' : ''}`}
      >
        {formatMoney(amount)}
      </dd>
      <dd className="mt-1 text-sm text-current/80">{hint}</dd>
    </div>
  );
}

function Balances({ summary }: { summary: PayoutSummary }) {
  return (
    <section aria-labelledby="balances-heading" className="space-y-3">
      <h2 id="balances-heading" className="text-xl font-semibold">
        {PAYOUTS_TEXT.balances}
      </h2>
      <dl className="grid grid-cols-2 gap-3 xl:grid-cols-3">
        <Figure
          label={PAYOUTS_TEXT.pending}
          amount={summary.pending}
          hint={PAYOUTS_TEXT.pendingHint}
        />
        <Figure
          label={PAYOUTS_TEXT.available}
          amount={summary.available}
          hint={PAYOUTS_TEXT.availableHint}
        />
        {summary.frozen > 0 && (
          <Figure
            label={PAYOUTS_TEXT.frozen}
            amount={summary.frozen}
            hint={PAYOUTS_TEXT.frozenHint}
          />
        )}
        <Figure
          label={PAYOUTS_TEXT.sending}
          amount={summary.sending}
          hint={PAYOUTS_TEXT.sendingHint}
        />
        <Figure
          label={PAYOUTS_TEXT.paidOut}
          amount={summary.paidOut}
          hint={PAYOUTS_TEXT.paidOutHint}
        />
      </dl>
      <div className="space-y-1">
        {summary.available < 0 && (
          <p className="font-medium">{PAYOUTS_TEXT.negative(formatMoney(-summary.available))}</p>
        )}
        {summary.account === null ? (
          <p className="alert alert-info">
            <span>
              <strong>{PAYOUTS_TEXT.noAccount}</strong>. {PAYOUTS_TEXT.noAccountHint}
            </span>
          </p>
        ) : (
          summary.nextPayoutAt && (
            <p className="font-medium">
              {PAYOUTS_TEXT.nextPayout(formatDateTime(summary.nextPayoutAt))}
            </p>
          )
        )}
        <p className="text-sm text-current/80">{PAYOUTS_TEXT.schedule(summary.schedule)}</p>
      </div>
    </section>
  );
}

const STATUS_BADGE: Record<PayoutAccount['status'], string> = {
  active: 'badge-success',
  pending: 'badge-warning',
  restricted: 'badge-error',
};

function AccountSection({
  account,
  provider,
}: {
  account: PayoutAccount | null;
  provider: 'embedded' | 'stripe';
}) {
  const [editing, setEditing] = useState(false);
  const changing = account !== null;
  const close = () => setEditing(false);
  const cancel = changing ? (
    <button type="button" className="btn" onClick={close}>
      {PAYOUTS_TEXT.cancel}
    </button>
  ) : undefined;
  const form =
    provider === 'stripe' ? (
      <StripeOnboardingForm changing={changing} actions={cancel} />
    ) : (
      <BankAccountForm changing={changing} onDone={close} actions={cancel} />
    );
  // Stripe still wants details: its onboarding is where the seller gives them.
  const stripeUnfinished = account?.kind === 'stripe' && account.status !== 'active';
  const startLabel =
    provider === 'stripe'
      ? PAYOUTS_TEXT.stripeSetUp
      : changing
        ? PAYOUTS_TEXT.changeAccount
        : PAYOUTS_TEXT.addAccount;

  return (
    <section aria-labelledby="account-heading" className="space-y-3">
      <h2 id="account-heading" className="text-xl font-semibold">
        {PAYOUTS_TEXT.account}
      </h2>
      {account && (
        <div className="space-y-1 rounded-box bg-base-200 p-4">
          <p className="flex flex-wrap items-center gap-2 font-semibold">
            <span>{account.label}</span>
            <span className={`badge ${STATUS_BADGE[account.status]}`}>
              <span className="sr-only">{PAYOUTS_TEXT.statusLabel}: </span>
              {PAYOUTS_TEXT.status[account.status]}
            </span>
          </p>
          <p className="text-sm">{PAYOUTS_TEXT.statusHint[account.status]}</p>
          <p className="text-sm text-current/80">
            {PAYOUTS_TEXT.addedOn(formatDate(account.addedAt))}
          </p>
          {account.payoutsHeldUntil && Date.parse(account.payoutsHeldUntil) > Date.now() && (
            <p className="text-sm font-medium">
              {PAYOUTS_TEXT.heldUntil(formatDateTime(account.payoutsHeldUntil))}
            </p>
          )}
        </div>
      )}
      {editing || (!account && provider === 'embedded') ? (
        form
      ) : (
        <button
          type="button"
          className={stripeUnfinished || !account ? 'btn btn-primary' : 'btn btn-outline'}
          onClick={() => setEditing(true)}
        >
          {startLabel}
        </button>
      )}
    </section>
  );
}

function WeeklyEarnings({ weeks }: { weeks: PayoutSummary['weeks'] }) {
  const total = weeks.reduce((sum, w) => sum + w.net, 0);
  const best = weeks.reduce<PayoutSummary['weeks'][number] | null>(
    (top, w) => (w.net > 0 && (!top || w.net > top.net) ? w : top),
    null,
  );
  const summary = PAYOUTS_TEXT.chartSummary(
    weeks.length,
    formatMoney(total),
    best && PAYOUTS_TEXT.bestWeek(formatMoney(best.net), weekLabel(best.weekStart)),
  );
  return (
    <section aria-labelledby="chart-heading" className="space-y-3">
      <h2 id="chart-heading" className="text-xl font-semibold">
        {PAYOUTS_TEXT.chart}
      </h2>
      <BarChart
        summary={summary}
        bars={weeks.map((w) => ({ label: weekLabel(w.weekStart), value: w.net }))}
        format={formatMoney}
        axisFormat={formatDollars}
        valueName={PAYOUTS_TEXT.earned}
      />
      <details>
        <summary className="cursor-pointer text-sm font-medium">
          {PAYOUTS_TEXT.chartFigures}
        </summary>
        <table className="table-sm table mt-2 w-auto">
          <thead className="text-base-content/80">
            <tr>
              <th scope="col">{PAYOUTS_TEXT.week}</th>
              <th scope="col" className="text-right">
                {PAYOUTS_TEXT.earned}
              </th>
            </tr>
          </thead>
          <tbody>
            {weeks.map((w) => (
              <tr key={w.weekStart}>
                <th scope="row" className="font-normal">
                  {formatDate(`${w.weekStart}T12:00:00Z`)}
                </th>
                <td className="text-right tabular-nums">{formatMoney(w.net)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </section>
  );
}

const PAYOUT_BADGE: Record<Payout['status'], string> = {
  sending: 'badge-info',
  paid: 'badge-success',
  failed: 'badge-error',
};

function PayoutItem({ payout }: { payout: Payout }) {
  return (
    <li className="space-y-2 rounded-box bg-base-200 p-4">
      <h3 className="flex flex-wrap items-center gap-2 font-semibold">
        <span>
          {PAYOUTS_TEXT.payoutOf(formatMoney(payout.amount), formatDateTime(payout.createdAt))}
        </span>
        <span className={`badge ${PAYOUT_BADGE[payout.status]}`}>
          {PAYOUTS_TEXT.payoutStatus[payout.status]}
        </span>
      </h3>
      {payout.status === 'failed' && payout.failureReason && (
        <p className="text-sm font-medium text-error">
          {PAYOUTS_TEXT.failedBecause(payout.failureReason)}
        </p>
      )}
      {payout.status === 'paid' && payout.settledAt && (
        <p className="text-sm">{PAYOUTS_TEXT.arrived(formatDateTime(payout.settledAt))}</p>
      )}
      {payout.sales.length > 0 && (
        <ul aria-label={PAYOUTS_TEXT.salesIn} className="space-y-1 text-sm">
          {payout.sales.map((sale) => (
            <li key={sale.orderId} className="flex justify-between gap-4">
              <Link to={`/dashboard/orders/${sale.orderId}`} className="link link-hover">
                {sale.productName}
              </Link>
              <span className="tabular-nums">{formatMoney(sale.net)}</span>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

function PayoutList({ payouts }: { payouts: readonly Payout[] }) {
  return (
    <section aria-labelledby="payouts-heading" className="space-y-3">
      <h2 id="payouts-heading" className="text-xl font-semibold">
        {PAYOUTS_TEXT.payouts}
      </h2>
      {payouts.length === 0 ? (
        <p>{PAYOUTS_TEXT.noPayouts}</p>
      ) : (
        <ul className="space-y-3">
          {payouts.map((p) => (
            <PayoutItem key={p._id} payout={p} />
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * Payouts (issue 30, not in the spec): the seller's money as the ledger has it, where it goes
 * (the payout account, asked with the password again), what was paid out, and what each week
 * earned.
 */
export function PayoutsRoute() {
  const { user } = useAuth();
  const { data: summary } = useSuspenseQuery(payoutsQueryOptions(user?.email ?? ''));
  const { data: config } = useSuspenseQuery(clientConfigQueryOptions());
  return (
    <DashboardPage title={PAYOUTS_TEXT.title}>
      <Balances summary={summary} />
      <div className="grid gap-8 xl:grid-cols-2">
        <AccountSection account={summary.account} provider={config.payouts.provider} />
        <WeeklyEarnings weeks={summary.weeks} />
      </div>
      <PayoutList payouts={summary.payouts} />
    </DashboardPage>
  );
}
