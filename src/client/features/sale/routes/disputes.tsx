import { DashboardPage } from '@client/components/layout/dashboard-page';
import { ConfirmDialog } from '@client/components/ui/confirm-dialog';
import { cell, DataTable } from '@client/components/ui/data-table';
import { ShowMore } from '@client/components/ui/show-more';
import { session } from '@client/lib/auth/session';
import { useAuth } from '@client/lib/auth/use-auth';
import { toastError } from '@client/lib/feedback';
import { formatDate, formatDollars } from '@client/lib/format';
import { toast } from '@client/lib/toast';
import { useConfirmedAction } from '@client/lib/use-confirmed-action';
import type { Sale } from '@shared/entities';
import { type QueryClient, useSuspenseInfiniteQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { type Decision, disputesQueryOptions, useResolveDispute } from '../api/sales';
import { PhoneNumber } from '../components/party-details';
import { SALE_TEXT } from '../texts';

const COLUMN = {
  index: '#',
  phone: 'Phone',
  buyer: SALE_TEXT.buyer,
  seller: SALE_TEXT.seller,
  reason: 'Reason',
  money: SALE_TEXT.moneyLabel,
  decision: 'Decision',
} as const;
const DISPUTE_COLUMNS = Object.values(COLUMN);

export const disputesLoader = (queryClient: QueryClient) => async () => {
  const user = await session.currentUser();
  if (user) await queryClient.ensureInfiniteQueryData(disputesQueryOptions(user.email));
  return null;
};

/** A side's name, e-mail and number, each on its line. */
function Contact({ party }: { party: Sale['buyer'] }) {
  return (
    <span className="flex flex-col">
      <span className="font-medium">{party.name}</span>
      {party.email && <span className="break-all">{party.email}</span>}
      {party.number && <PhoneNumber number={party.number} />}
    </span>
  );
}

/**
 * Disputes (not in the spec): the problems buyers reported after a handover, with both sides and
 * where the money is. The admin refunds the buyer or closes the report (the seller keeps the
 * money), each after a confirmation.
 */
export function DisputesRoute() {
  const { user } = useAuth();
  const query = useSuspenseInfiniteQuery(disputesQueryOptions(user?.email ?? ''));
  const disputes = query.data.pages.flatMap((p) => p.data);
  const byId = new Map(disputes.map((d) => [d._id, d]));
  const resolve = useConfirmedAction(
    useResolveDispute({
      onSuccess: (_, { decision }) => {
        toast.success(decision === 'refund' ? SALE_TEXT.refunded : SALE_TEXT.closed);
      },
      onError: (error) => toastError(error),
    }),
    ({ id, decision }: Decision) => {
      const sale = byId.get(id);
      return decision === 'refund'
        ? SALE_TEXT.refundQuestion(sale?.buyer.name ?? 'the buyer', sale?.productName ?? '')
        : SALE_TEXT.closeQuestion(sale?.productName ?? '');
    },
  );

  return (
    <DashboardPage title={SALE_TEXT.disputes}>
      {disputes.length === 0 ? (
        <p>{SALE_TEXT.noDisputes}</p>
      ) : (
        <DataTable columns={DISPUTE_COLUMNS}>
          {disputes.map((d, i) => (
            <tr key={d._id}>
              <th scope="row">{i + 1}</th>
              <td {...cell(COLUMN.phone, 'title')}>
                <Link to={`/dashboard/orders/${d._id}`} className="link link-hover">
                  {d.productName}
                </Link>{' '}
                <span className="font-normal">{formatDollars(d.price)}</span>
              </td>
              <td {...cell(COLUMN.buyer)}>
                <Contact party={d.buyer} />
              </td>
              <td {...cell(COLUMN.seller)}>
                <Contact party={d.seller} />
              </td>
              <td {...cell(COLUMN.reason)}>
                {d.dispute && (
                  <span className="flex flex-col">
                    <span className="whitespace-pre-line">{d.dispute.reason}</span>
                    <time dateTime={d.dispute.reportedAt} className="text-sm">
                      {formatDate(d.dispute.reportedAt)}
                    </time>
                  </span>
                )}
              </td>
              <td {...cell(COLUMN.money)}>
                {d.money ? SALE_TEXT.money[d.money] : SALE_TEXT.notPaid}
              </td>
              <td {...cell(COLUMN.decision, 'action')}>
                {d.actions.includes('refund') || d.actions.includes('close') ? (
                  <span className="flex flex-wrap gap-2">
                    {d.actions.includes('refund') && (
                      <button
                        type="button"
                        className="btn btn-primary btn-sm"
                        onClick={() => resolve.ask({ id: d._id, decision: 'refund' })}
                      >
                        {SALE_TEXT.refund}
                        <span className="sr-only"> {d.productName}</span>
                      </button>
                    )}
                    {d.actions.includes('close') && (
                      <button
                        type="button"
                        className="btn btn-outline btn-sm"
                        onClick={() => resolve.ask({ id: d._id, decision: 'close' })}
                      >
                        {SALE_TEXT.close}
                        <span className="sr-only"> {d.productName}</span>
                      </button>
                    )}
                  </span>
                ) : (
                  d.dispute?.resolution && (
                    <span className="badge badge-neutral">
                      {SALE_TEXT.decided[d.dispute.resolution]}
                    </span>
                  )
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <ShowMore query={query} />
      <ConfirmDialog {...resolve.dialog} />
    </DashboardPage>
  );
}
