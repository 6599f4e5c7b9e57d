import { DashboardPage } from '@client/components/layout/dashboard-page';
import { ConfirmDialog } from '@client/components/ui/confirm-dialog';
import { cell, DataTable, DeleteButton } from '@client/components/ui/data-table';
import { StageBadge } from '@client/components/ui/stage-badge';
import { session } from '@client/lib/auth/session';
import { useAuth } from '@client/lib/auth/use-auth';
import { ensureCurrent } from '@client/lib/ensure-current';
import { deleteFeedback } from '@client/lib/feedback';
import { formatDollars } from '@client/lib/format';
import { useConfirmedAction } from '@client/lib/use-confirmed-action';
import { srcSetOf } from '@shared/images';
import { can, isPaidStage } from '@shared/order-process';
import { TEXT } from '@shared/texts';
import { type QueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { myOrdersQueryOptions, useDeleteOrder } from '../api/orders';
import { BUYING_TEXT } from '../texts';

const COLUMN = {
  index: '#',
  image: 'Product Image',
  name: 'Product Name',
  price: 'Price',
  meetPoint: 'Meet Point',
  number: 'Number',
  pay: TEXT.dashboard.pay,
  action: 'Action',
} as const;
const ORDER_COLUMNS = Object.values(COLUMN);

export const myOrdersLoader = (queryClient: QueryClient) => async () => {
  const user = await session.currentUser();
  // Signed out: the dashboard's own loader sends the visitor to sign in.
  if (user) await ensureCurrent(queryClient, myOrdersQueryOptions(user.email));
  return null;
};

/** My Orders: index, Product Image, Product Name, Price, Meet Point, Number, Pay, Action. */
export function MyOrdersRoute() {
  const { user } = useAuth();
  const email = user?.email ?? '';
  const { data: orders } = useSuspenseQuery(myOrdersQueryOptions(email));
  const deletion = useConfirmedAction(
    useDeleteOrder(email, deleteFeedback(TEXT.toast.orderDeleted)),
    TEXT.confirm.delete,
  );

  return (
    <DashboardPage title={TEXT.dashboard.myOrders}>
      {orders.length === 0 ? (
        <p>
          You have not booked a phone yet.{' '}
          <Link to="/" className="link link-primary">
            Browse phones
          </Link>{' '}
          and choose Book Now on one you like.
        </p>
      ) : (
        <DataTable columns={ORDER_COLUMNS}>
          {orders.map((o, i) => (
            <tr key={o._id}>
              <th scope="row">{i + 1}</th>
              <td {...cell(COLUMN.image)}>
                <img
                  src={o.image}
                  srcSet={srcSetOf(o.image)}
                  sizes="64px"
                  alt={o.productName}
                  width={64}
                  height={48}
                  className="rounded"
                />
              </td>
              <td {...cell(COLUMN.name, 'title')}>
                <Link to={`/dashboard/orders/${o._id}`} className="link link-hover">
                  {o.productName}
                </Link>
                <Link
                  to={`/product/${o.productId}`}
                  className="link link-hover block text-sm font-normal text-current/80"
                >
                  {BUYING_TEXT.phonePage}
                  <span className="sr-only">: {o.productName}</span>
                </Link>
              </td>
              <td {...cell(COLUMN.price)}>{formatDollars(o.price)}</td>
              <td {...cell(COLUMN.meetPoint)}>{o.location}</td>
              <td {...cell(COLUMN.number)}>{o.number}</td>
              <td {...cell(COLUMN.pay, 'action')}>
                {o.soldElsewhere ? (
                  <span className="badge badge-warning">{BUYING_TEXT.soldElsewhere}</span>
                ) : can('order', o.stage, 'pay') ? (
                  <Link to={`/dashboard/payment/${o._id}`} className="btn btn-primary btn-sm">
                    {TEXT.dashboard.pay}
                    <span className="sr-only"> for {o.productName}</span>
                  </Link>
                ) : isPaidStage(o.stage) ? (
                  <span className="inline-flex flex-wrap items-center gap-2">
                    <StageBadge stage={o.stage}>{TEXT.dashboard.paid}</StageBadge>
                    <span className="text-sm">{BUYING_TEXT.stage[o.stage]}</span>
                  </span>
                ) : (
                  // Cancelled, expired or refunded: the money went back, so no "paid" here.
                  <StageBadge stage={o.stage}>{BUYING_TEXT.stage[o.stage]}</StageBadge>
                )}
              </td>
              {/* Only a booked order is deleted (its cancel); a paid one is kept with its
                  payment, and is handed over, cancelled or reported from its own page. */}
              <td {...cell(COLUMN.action, 'action')}>
                {o.stage === 'booked' ? (
                  can('order', o.stage, 'cancel') && (
                    <DeleteButton what={o.productName} onClick={() => deletion.ask(o._id)} />
                  )
                ) : (
                  <Link to={`/dashboard/orders/${o._id}`} className="btn btn-outline btn-sm">
                    {BUYING_TEXT.openSale}
                    <span className="sr-only">: {o.productName}</span>
                  </Link>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <ConfirmDialog {...deletion.dialog} />
    </DashboardPage>
  );
}
