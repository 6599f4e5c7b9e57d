import { DashboardPage } from '@client/components/layout/dashboard-page';
import { ConfirmDialog } from '@client/components/ui/confirm-dialog';
import { cell, DataTable } from '@client/components/ui/data-table';
import { Modal } from '@client/components/ui/modal';
import { RatingSummary } from '@client/components/ui/rating-summary';
import { ShowMore } from '@client/components/ui/show-more';
import { StageBadge } from '@client/components/ui/stage-badge';
import { session } from '@client/lib/auth/session';
import { useAuth } from '@client/lib/auth/use-auth';
import { clientConfigQueryOptions, useFeeRule } from '@client/lib/client-config';
import { ensureCurrent } from '@client/lib/ensure-current';
import { toastError } from '@client/lib/feedback';
import { formatMoney } from '@client/lib/format';
import { toast } from '@client/lib/toast';
import { useConfirmedAction } from '@client/lib/use-confirmed-action';
import type { Sale } from '@shared/entities';
import type { FeeRule } from '@shared/fees';
import { TEXT } from '@shared/texts';
import { type QueryClient, useSuspenseInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { mySalesQueryOptions, useCancelSale } from '../api/sales';
import { HandoverForm } from '../components/handover-form';
import { PhoneNumber } from '../components/party-details';
import { RatingForm } from '../components/rating-form';
import { saleMoney } from '../sale-money';
import { SALE_TEXT } from '../texts';

const COLUMN = {
  index: '#',
  phone: 'Phone',
  buyer: 'Buyer',
  meetingPoint: SALE_TEXT.meetingPoint,
  number: "Buyer's number",
  stage: SALE_TEXT.stageLabel,
  action: 'Action',
} as const;
const SALE_COLUMNS = Object.values(COLUMN);

export const mySalesLoader = (queryClient: QueryClient) => async () => {
  const user = await session.currentUser();
  // Signed out: the dashboard's own loader sends the visitor to sign in.
  if (user)
    await Promise.all([
      queryClient.ensureInfiniteQueryData(mySalesQueryOptions(user.email)),
      // The fee rule, for the fee a sale not handed over yet is expected to pay (issue 30).
      ensureCurrent(queryClient, clientConfigQueryOptions()),
    ]);
  return null;
};

/**
 * Under the stage, what the seller receives of the sale, its price and fee, and where that money
 * is; before the handover the expected ones, by the fee rule. In the stage's cell, not a column
 * of its own: the table's headings do not wrap, and one more pushed the buttons out of a
 * laptop's view.
 */
function SaleMoney({ sale, rule }: { sale: Sale; rule: FeeRule | undefined }) {
  const money = saleMoney(sale, rule);
  if (!money) return null;
  return (
    <span className="mt-1 block text-sm">
      <span className="block">
        <span className="font-semibold">{SALE_TEXT.netOf(formatMoney(money.net))}</span>
        {money.expected && ` (${SALE_TEXT.expected})`}
      </span>
      <span className="block">
        {SALE_TEXT.priceLessFee(formatMoney(sale.price), formatMoney(money.fee))}
      </span>
      {sale.sellerMoney && <span className="block">{SALE_TEXT.yourMoneyIs(sale.sellerMoney)}</span>}
    </span>
  );
}

/** The sale a dialog is open for, and which dialog. */
type Open = { sale: Sale; dialog: 'handover' | 'rate' } | null;

/**
 * My Sales (not in the spec): every booking and sale of the seller's phones, with the buyer, the
 * meeting point and, once paid, the buyer's number; the handover, a cancel and the rating of
 * the buyer, as the server offers them.
 */
export function MySalesRoute() {
  const { user } = useAuth();
  const query = useSuspenseInfiniteQuery(mySalesQueryOptions(user?.email ?? ''));
  const sales = query.data.pages.flatMap((p) => p.data);
  const rule = useFeeRule();
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);
  const cancel = useConfirmedAction(
    useCancelSale({
      onSuccess: () => {
        toast.success(SALE_TEXT.cancelled);
      },
      onError: (error) => toastError(error),
    }),
    SALE_TEXT.cancelQuestion('seller'),
  );
  const cancelButton = (
    <button type="button" className="btn" onClick={close}>
      {TEXT.confirm.cancel}
    </button>
  );

  return (
    <DashboardPage title={SALE_TEXT.mySales}>
      {sales.length === 0 ? (
        <p>{SALE_TEXT.noSales}</p>
      ) : (
        <DataTable columns={SALE_COLUMNS}>
          {sales.map((s, i) => (
            <tr key={s._id}>
              <th scope="row">{i + 1}</th>
              <td {...cell(COLUMN.phone, 'title')}>
                <Link to={`/dashboard/orders/${s._id}`} className="link link-hover">
                  {s.productName}
                </Link>
              </td>
              <td {...cell(COLUMN.buyer)}>
                <span className="flex flex-wrap items-center gap-x-2">
                  <span>{s.buyer.name}</span>
                  <RatingSummary rating={s.buyer.rating} />
                </span>
              </td>
              <td {...cell(COLUMN.meetingPoint)}>{s.meetingPoint}</td>
              <td {...cell(COLUMN.number)}>
                {s.buyer.number ? <PhoneNumber number={s.buyer.number} /> : SALE_TEXT.afterPayment}
              </td>
              <td {...cell(COLUMN.stage)}>
                {/* One child: on a phone the cell is a grid of its label and its value. */}
                <span>
                  {s.soldElsewhere ? (
                    SALE_TEXT.soldElsewhereShort
                  ) : (
                    <StageBadge stage={s.stage}>{SALE_TEXT.stage[s.stage]}</StageBadge>
                  )}
                  <SaleMoney sale={s} rule={rule} />
                </span>
              </td>
              <td {...cell(COLUMN.action, 'action')}>
                <SaleButtons
                  sale={s}
                  onHandover={() => setOpen({ sale: s, dialog: 'handover' })}
                  onCancel={() => cancel.ask(s._id)}
                  onRate={() => setOpen({ sale: s, dialog: 'rate' })}
                />
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <ShowMore query={query} />
      <ConfirmDialog {...cancel.dialog} />
      {open?.dialog === 'handover' && (
        <Modal open onClose={close} title={SALE_TEXT.handoverOf(open.sale.productName)}>
          <HandoverForm sale={open.sale} onDone={close} actions={cancelButton} />
        </Modal>
      )}
      {open?.dialog === 'rate' && (
        <Modal open onClose={close} title={SALE_TEXT.rateWho('buyer', open.sale.productName)}>
          <RatingForm saleId={open.sale._id} onDone={close} actions={cancelButton} />
        </Modal>
      )}
    </DashboardPage>
  );
}

/** What the seller may do with one sale now; nothing when there is nothing (the cell hides). */
function SaleButtons({
  sale,
  onHandover,
  onCancel,
  onRate,
}: {
  sale: Sale;
  onHandover: () => void;
  onCancel: () => void;
  onRate: () => void;
}) {
  const may = (t: Sale['actions'][number]) => sale.actions.includes(t);
  const name = <span className="sr-only"> {sale.productName}</span>;
  if (!may('handover') && !may('cancel') && !may('rate')) return null;
  return (
    <span className="flex flex-wrap gap-2">
      {may('handover') && (
        <button type="button" className="btn btn-primary btn-sm" onClick={onHandover}>
          {SALE_TEXT.handover}
          {name}
        </button>
      )}
      {may('cancel') && (
        <button type="button" className="btn btn-outline btn-error btn-sm" onClick={onCancel}>
          {SALE_TEXT.cancelSale}
          {name}
        </button>
      )}
      {may('rate') && (
        <button type="button" className="btn btn-secondary btn-sm" onClick={onRate}>
          {SALE_TEXT.rate('buyer')}
          {name}
        </button>
      )}
    </span>
  );
}
