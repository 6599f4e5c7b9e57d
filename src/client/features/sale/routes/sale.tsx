import { DashboardPage } from '@client/components/layout/dashboard-page';
import { ConfirmDialog } from '@client/components/ui/confirm-dialog';
import { Modal } from '@client/components/ui/modal';
import { StageBadge } from '@client/components/ui/stage-badge';
import { ApiError } from '@client/lib/api-client';
import { session } from '@client/lib/auth/session';
import { useAuth } from '@client/lib/auth/use-auth';
import { clientConfigQueryOptions, useFeeRule } from '@client/lib/client-config';
import { ensureCurrent } from '@client/lib/ensure-current';
import { deleteFeedback, toastError } from '@client/lib/feedback';
import { formatDateTime, formatDollars, formatMoney } from '@client/lib/format';
import { toast } from '@client/lib/toast';
import { useConfirmedAction } from '@client/lib/use-confirmed-action';
import type { Sale } from '@shared/entities';
import type { FeeRule } from '@shared/fees';
import { srcSetOf } from '@shared/images';
import { REPORT_WINDOW_DAYS } from '@shared/order-process';
import { TEXT } from '@shared/texts';
import { type QueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { data, Link, type LoaderFunctionArgs, useNavigate, useParams } from 'react-router';
import {
  type Decision,
  saleQueryOptions,
  useCancelSale,
  useDeleteBooking,
  useResolveDispute,
} from '../api/sales';
import { HandoverForm } from '../components/handover-form';
import { PartyDetails } from '../components/party-details';
import { RatingForm } from '../components/rating-form';
import { ReportForm } from '../components/report-form';
import { StageTimeline } from '../components/stage-timeline';
import { saleMoney } from '../sale-money';
import { SALE_TEXT } from '../texts';

/**
 * The sale loads before the page shows. One that does not exist, or that the viewer is on
 * neither side of, is the 404 page: the server answers 404, 403, or 400 for an id that cannot be
 * one.
 */
export const saleLoader =
  (queryClient: QueryClient) =>
  async ({ params }: LoaderFunctionArgs) => {
    const user = await session.currentUser();
    // Signed out: the dashboard's own loader sends the visitor to sign in.
    if (!user) return null;
    // The fee rule, for the fee a sale not handed over yet is expected to pay (issue 30).
    void queryClient.prefetchQuery(clientConfigQueryOptions());
    try {
      await ensureCurrent(queryClient, {
        ...saleQueryOptions(user.email, params.id ?? ''),
        revalidateIfStale: true,
      });
    } catch (error) {
      if (error instanceof ApiError && [400, 403, 404].includes(error.status))
        throw data(null, { status: 404 });
      throw error;
    }
    return null;
  };

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="font-semibold">{label}</dt>
      <dd>{children}</dd>
    </>
  );
}

/** The fee and the seller's share (issue 30), to the seller and an admin; expected before the handover. */
function SellerShare({ sale, rule }: { sale: Sale; rule: FeeRule | undefined }) {
  const money = saleMoney(sale, rule);
  if (!money) return null;
  const expected = money.expected && ` (${SALE_TEXT.expected})`;
  return (
    <>
      <Row label={SALE_TEXT.fee}>
        {formatMoney(money.fee)}
        {expected}
      </Row>
      <Row label={sale.side === 'seller' ? SALE_TEXT.youReceive : SALE_TEXT.sellerReceives}>
        {formatMoney(money.net)}
        {expected}
      </Row>
      {sale.sellerMoney && (
        <Row label={sale.side === 'seller' ? SALE_TEXT.yourMoney : SALE_TEXT.sellerMoneyLabel}>
          {SALE_TEXT.sellerMoney[sale.sellerMoney]}
        </Row>
      )}
    </>
  );
}

function Summary({ sale }: { sale: Sale }) {
  const rule = useFeeRule();
  return (
    <section aria-labelledby="details-heading" className="space-y-3">
      <h2 id="details-heading" className="text-xl font-semibold">
        {SALE_TEXT.details}
      </h2>
      <div className="flex gap-4 rounded-box bg-base-200 p-4">
        <img
          src={sale.image}
          srcSet={srcSetOf(sale.image)}
          sizes="(min-width: 640px) 160px, 96px"
          alt={sale.productName}
          width={160}
          height={120}
          className="h-18 w-24 shrink-0 rounded object-cover sm:h-30 sm:w-40"
        />
        <dl className="grid grid-cols-[auto_1fr] content-start gap-x-4 gap-y-1 text-sm">
          <Row label={SALE_TEXT.phone}>
            <Link to={`/product/${sale.productId}`} className="link link-hover">
              {sale.productName}
            </Link>
          </Row>
          <Row label={SALE_TEXT.price}>{formatDollars(sale.price)}</Row>
          <SellerShare sale={sale} rule={rule} />
          <Row label={SALE_TEXT.stageLabel}>
            <StageBadge stage={sale.stage}>{SALE_TEXT.stage[sale.stage]}</StageBadge>
          </Row>
          <Row label={SALE_TEXT.moneyLabel}>
            {sale.money ? SALE_TEXT.money[sale.money] : SALE_TEXT.notPaid}
          </Row>
          <Row label={SALE_TEXT.meetingPoint}>{sale.meetingPoint}</Row>
          {sale.imeiLast4 && (
            <Row label={SALE_TEXT.imeiLabel}>{SALE_TEXT.imeiEndsIn(sale.imeiLast4)}</Row>
          )}
          {sale.transactionId && (
            <Row label={SALE_TEXT.transaction}>
              <code className="break-all">{sale.transactionId}</code>
            </Row>
          )}
        </dl>
      </div>
    </section>
  );
}

/** The IMEI's last four digits to compare with the phone's own at the handover (issue 19). */
function ImeiCheck({ text }: { text: string }) {
  return (
    <p className="rounded-box bg-base-200 p-3 font-medium">
      <svg aria-hidden="true" viewBox="0 0 20 20" className="mr-2 inline h-4 w-4 fill-current">
        <path d="M10 1.5 3 4.2v5.1c0 4.2 3 7.9 7 9.2 4-1.3 7-5 7-9.2V4.2zm-1.2 12L5.3 10l1.4-1.4 2.1 2.1 4.5-4.5 1.4 1.4z" />
      </svg>
      {text}
    </p>
  );
}

/** The buyer's code, big enough to read out or show across a table. */
function HandoverCode({ code }: { code: string }) {
  return (
    <div className="rounded-box border-2 border-primary p-4">
      <h3 className="font-semibold">{SALE_TEXT.code}</h3>
      <p className="my-2 font-mono text-5xl font-bold tracking-[0.25em]">{code}</p>
      <p className="font-medium">{SALE_TEXT.codeHint}</p>
    </div>
  );
}

function Subsection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="space-y-2">
      <h3 className="font-semibold">{title}</h3>
      {children}
    </div>
  );
}

function GivenRatings({ sale }: { sale: Sale }) {
  if (sale.side === 'admin') return null;
  const other = sale.side === 'buyer' ? 'seller' : 'buyer';
  const mine = sale.side === 'buyer' ? sale.ratings.byBuyer : sale.ratings.bySeller;
  const theirs = sale.side === 'buyer' ? sale.ratings.bySeller : sale.ratings.byBuyer;
  if (!mine && !theirs) return null;
  const line = (label: string, r: { stars: number; comment: string }) => (
    <p>
      <span className="font-semibold">{label}:</span> {SALE_TEXT.ratedStars(r.stars)}
      {r.comment && <q className="ml-2 italic">{r.comment}</q>}
    </p>
  );
  return (
    <section aria-labelledby="ratings-heading" className="space-y-1">
      <h2 id="ratings-heading" className="text-xl font-semibold">
        {SALE_TEXT.ratings}
      </h2>
      {mine && line(SALE_TEXT.yourRating, mine)}
      {theirs && line(SALE_TEXT.theirRating(other), theirs)}
    </section>
  );
}

function Dispute({ dispute }: { dispute: NonNullable<Sale['dispute']> }) {
  return (
    <section
      aria-labelledby="dispute-heading"
      className="space-y-1 rounded-box border border-warning p-4"
    >
      <h2 id="dispute-heading" className="text-xl font-semibold">
        {SALE_TEXT.disputeReason}
      </h2>
      <p className="whitespace-pre-line">{dispute.reason}</p>
      <p className="text-sm">
        {dispute.resolution === 'refunded'
          ? SALE_TEXT.disputeRefunded
          : dispute.resolution === 'closed'
            ? SALE_TEXT.disputeClosed
            : SALE_TEXT.disputeOpen}
      </p>
    </section>
  );
}

/**
 * One order as its buyer, its seller or an admin sees it (not in the spec): what to do now,
 * drawn from the transitions the server says the viewer may take; the other side; the meeting
 * point; and the steps so far with their times.
 */
export function SaleRoute() {
  const { id = '' } = useParams();
  const { user } = useAuth();
  const { data: sale } = useSuspenseQuery(saleQueryOptions(user?.email ?? '', id));
  const navigate = useNavigate();
  const [reporting, setReporting] = useState(false);
  const may = (t: Sale['actions'][number]) => sale.actions.includes(t);
  const other = sale.side === 'seller' ? 'buyer' : 'seller';

  const cancel = useConfirmedAction(
    useCancelSale({
      onSuccess: () => {
        toast.success(SALE_TEXT.cancelled);
      },
      onError: (error) => toastError(error),
    }),
    SALE_TEXT.cancelQuestion(sale.side),
  );
  const deleted = deleteFeedback(TEXT.toast.orderDeleted);
  const deletion = useConfirmedAction(
    useDeleteBooking({
      onSuccess: (answer) => {
        deleted.onSuccess(answer);
        navigate('/dashboard/myorders');
      },
      onError: deleted.onError,
    }),
    TEXT.confirm.delete,
  );
  const resolve = useConfirmedAction(
    useResolveDispute({
      onSuccess: (_, { decision }) => {
        toast.success(decision === 'refund' ? SALE_TEXT.refunded : SALE_TEXT.closed);
      },
      onError: (error) => toastError(error),
    }),
    ({ decision }: Decision) =>
      decision === 'refund'
        ? SALE_TEXT.refundQuestion(sale.buyer.name, sale.productName)
        : SALE_TEXT.closeQuestion(sale.productName),
  );

  const booked = sale.stage === 'booked';
  const holdNote = sale.holdExpiresAt && (
    <p className="text-sm">{SALE_TEXT.holdUntil(formatDateTime(sale.holdExpiresAt))}</p>
  );
  const steps: ReactNode[] = [];
  if (sale.soldElsewhere)
    steps.push(
      <p key="sold" role="status" className="alert alert-warning">
        {SALE_TEXT.soldElsewhere}
      </p>,
    );
  if (may('pay'))
    steps.push(
      <div key="pay" className="space-y-2">
        <p>{SALE_TEXT.bookedNext}</p>
        <Link to={`/dashboard/payment/${sale._id}`} className="btn btn-primary">
          {SALE_TEXT.payFor(formatDollars(sale.price))}
        </Link>
      </div>,
    );
  if (sale.side === 'seller' && booked && !sale.soldElsewhere)
    steps.push(<p key="wait">{SALE_TEXT.waitForBuyer}</p>);
  if (sale.handoverCode)
    steps.push(
      <div key="code" className="space-y-2">
        <HandoverCode code={sale.handoverCode} />
        {sale.imeiLast4 && <ImeiCheck text={SALE_TEXT.imeiCheckBuyer(sale.imeiLast4)} />}
        {holdNote}
      </div>,
    );
  if (may('handover'))
    steps.push(
      <div key="handover" className="space-y-2">
        {sale.imeiLast4 && <ImeiCheck text={SALE_TEXT.imeiCheckSeller(sale.imeiLast4)} />}
        <HandoverForm sale={sale} />
        {holdNote}
      </div>,
    );
  if (may('report'))
    steps.push(
      <Subsection key="report" title={SALE_TEXT.report}>
        <p className="text-sm">{SALE_TEXT.reportHint(REPORT_WINDOW_DAYS)}</p>
        <button type="button" className="btn btn-outline" onClick={() => setReporting(true)}>
          {SALE_TEXT.report}
        </button>
      </Subsection>,
    );
  if (may('rate'))
    steps.push(
      <Subsection key="rate" title={SALE_TEXT.rate(other)}>
        <RatingForm saleId={sale._id} />
      </Subsection>,
    );

  const buttons: ReactNode[] = [];
  // Cancelling a booked order is the spec's delete; a paid one is a cancelled sale.
  if (may('cancel'))
    buttons.push(
      <button
        key="cancel"
        type="button"
        className="btn btn-error btn-outline"
        onClick={() => (booked ? deletion : cancel).ask(sale._id)}
      >
        {booked ? 'Delete' : SALE_TEXT.cancelSale}
      </button>,
    );
  for (const decision of ['refund', 'close'] as const)
    if (may(decision))
      buttons.push(
        <button
          key={decision}
          type="button"
          className={decision === 'refund' ? 'btn btn-primary' : 'btn btn-outline'}
          onClick={() => resolve.ask({ id: sale._id, decision })}
        >
          {decision === 'refund' ? SALE_TEXT.refund : SALE_TEXT.close}
        </button>,
      );

  return (
    <DashboardPage
      title={
        sale.side === 'buyer'
          ? SALE_TEXT.orderTitle(sale.productName)
          : SALE_TEXT.saleTitle(sale.productName)
      }
    >
      <div className="grid gap-6 lg:grid-cols-[3fr_2fr]">
        <div className="min-w-0 space-y-6">
          <section aria-labelledby="next-heading" className="space-y-4">
            <h2 id="next-heading" className="text-xl font-semibold">
              {SALE_TEXT.next}
            </h2>
            {steps.length === 0 && buttons.length === 0 ? <p>{SALE_TEXT.nothingToDo}</p> : steps}
            {buttons.length > 0 && <div className="flex flex-wrap gap-2">{buttons}</div>}
          </section>
          <Summary sale={sale} />
          {sale.dispute && <Dispute dispute={sale.dispute} />}
          <GivenRatings sale={sale} />
        </div>
        <div className="min-w-0 space-y-6">
          {sale.side !== 'seller' && <PartyDetails title="seller" party={sale.seller} />}
          {sale.side !== 'buyer' && <PartyDetails title="buyer" party={sale.buyer} />}
          <StageTimeline sale={sale} />
        </div>
      </div>
      <ConfirmDialog {...cancel.dialog} />
      <ConfirmDialog {...deletion.dialog} />
      <ConfirmDialog {...resolve.dialog} />
      {reporting && (
        <Modal
          open
          onClose={() => setReporting(false)}
          title={SALE_TEXT.reportOf(sale.productName)}
        >
          <ReportForm
            saleId={sale._id}
            onDone={() => setReporting(false)}
            actions={
              <button type="button" className="btn" onClick={() => setReporting(false)}>
                {TEXT.confirm.cancel}
              </button>
            }
          />
        </Modal>
      )}
    </DashboardPage>
  );
}
