import { DashboardPage } from '@client/components/layout/dashboard-page';
import { ConfirmDialog } from '@client/components/ui/confirm-dialog';
import { cell, DataTable, DeleteButton } from '@client/components/ui/data-table';
import { session } from '@client/lib/auth/session';
import { useAuth } from '@client/lib/auth/use-auth';
import { ensureCurrent } from '@client/lib/ensure-current';
import { deleteFeedback, toastError } from '@client/lib/feedback';
import { formatDollars } from '@client/lib/format';
import { toast } from '@client/lib/toast';
import { useConfirmedAction } from '@client/lib/use-confirmed-action';
import { can } from '@shared/order-process';
import { TEXT } from '@shared/texts';
import { type QueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useRelistProduct, useStopAdvertising, useWithdrawProduct } from '../api/manage-product';
import { myProductsQueryOptions, useAdvertiseProduct, useDeleteProduct } from '../api/my-products';
import { useWhatSells } from '../api/what-sells';
import { BULK_TEXT } from '../bulk-texts';
import { ListingFigures, WhatSellsSection } from '../components/what-sells';
import { SELLING_TEXT } from '../texts';

const COLUMN = {
  index: '#',
  name: 'Name',
  price: 'Price',
  status: 'Status',
  advertise: TEXT.dashboard.avertise,
  action: 'Action',
} as const;
const PRODUCT_COLUMNS = Object.values(COLUMN);

export const myProductsLoader = (queryClient: QueryClient) => async () => {
  const user = await session.currentUser();
  // Signed out: the dashboard's own loader sends the visitor to sign in.
  if (user) await ensureCurrent(queryClient, myProductsQueryOptions(user.email));
  return null;
};

/**
 * A phone's status as My Products shows it: the spec's words, Withdrawn (issue 19), and Under
 * review for a phone its risk signals hold back (issue 34), with no reason.
 */
const STATUS_TEXT = {
  available: TEXT.dashboard.available,
  sold: TEXT.product.sold,
  withdrawn: SELLING_TEXT.status.withdrawn,
  held: SELLING_TEXT.status.held,
} as const;

/**
 * My Products: number, Name, Price, Status, Avertise, Action (spec section 2). Avertise says
 * "Advertised" (with Stop advertising) once a phone is; Action offers what can succeed in the
 * phone's state: Edit, Withdraw or Relist, Photos, and the spec's Delete (issue 19).
 */
export function MyProductsRoute() {
  const { user } = useAuth();
  const email = user?.email ?? '';
  const { data: products } = useSuspenseQuery(myProductsQueryOptions(email));
  const deletion = useConfirmedAction(
    useDeleteProduct(deleteFeedback(TEXT.toast.productDeleted)),
    TEXT.confirm.delete,
  );
  const advertising = useConfirmedAction(
    useAdvertiseProduct({
      onSuccess: (result) => {
        if (result.acknowledged) toast.success(TEXT.toast.advertised);
        else toast.error(result.message ?? 'The product was not advertised.');
      },
      onError: (error) => toastError(error),
    }),
    TEXT.confirm.advertise,
  );
  const told = (message: string) => ({
    onSuccess: () => void toast.success(message),
    onError: (error: unknown) => toastError(error),
  });
  const stopping = useConfirmedAction(
    useStopAdvertising(told(SELLING_TEXT.stoppedAdvertising)),
    SELLING_TEXT.confirmStopAdvertising,
  );
  const withdrawal = useConfirmedAction(
    useWithdrawProduct(told(SELLING_TEXT.withdrawn)),
    SELLING_TEXT.confirmWithdraw,
  );
  const relist = useRelistProduct(told(SELLING_TEXT.relisted));
  // What sells (issue 35): the figures come after the table, which does not wait for them.
  const { data: whatSells } = useWhatSells();
  const figuresOf = new Map(whatSells?.listings.map((l) => [l._id, l]));

  return (
    <DashboardPage title={TEXT.dashboard.myProducts}>
      {/* Many phones at once from a spreadsheet (issue 35). */}
      {products.length > 0 && (
        <Link to="/dashboard/addmany" className="btn btn-sm">
          {BULK_TEXT.addMany}
        </Link>
      )}
      {products.length > 0 ? (
        <DataTable columns={PRODUCT_COLUMNS} label={TEXT.dashboard.myProducts}>
          {products.map((p, i) => (
            <tr key={p._id}>
              <th scope="row">{i + 1}</th>
              {/* The phone's own page, as buyers see it (issue 31); a held one has none (issue 34). */}
              <td {...cell(COLUMN.name, 'title')}>
                {p.status === 'held' ? (
                  p.modelName
                ) : (
                  <Link to={`/product/${p._id}`} className="link link-hover">
                    {p.modelName}
                  </Link>
                )}
                <ListingFigures figures={figuresOf.get(p._id)} />
              </td>
              <td {...cell(COLUMN.price)}>{formatDollars(p.resellPrice)}</td>
              <td {...cell(COLUMN.status)}>
                {STATUS_TEXT[p.status]}
                {p.imeiBlocked && (
                  <span className="block text-sm text-error">{SELLING_TEXT.imeiBlocked}</span>
                )}
              </td>
              <td {...cell(COLUMN.advertise, 'action')}>
                {/* A withdrawn phone is on no page; relisted, its advertisement shows again. */}
                {p.advertised && p.status === 'available' ? (
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="badge badge-info">{SELLING_TEXT.advertised}</span>
                    {can('product', p.status, 'stopAdvertising') && (
                      <button
                        type="button"
                        className="btn btn-ghost btn-sm"
                        onClick={() => stopping.ask(p._id)}
                      >
                        {SELLING_TEXT.stopAdvertising}
                        <span className="sr-only"> {p.modelName}</span>
                      </button>
                    )}
                  </div>
                ) : (
                  can('product', p.status, 'advertise') && (
                    <button
                      type="button"
                      className="btn btn-secondary btn-sm"
                      onClick={() => advertising.ask(p._id)}
                    >
                      {TEXT.dashboard.avertise}
                      <span className="sr-only"> {p.modelName}</span>
                    </button>
                  )
                )}
              </td>
              <td {...cell(COLUMN.action, 'action')}>
                <div className="flex flex-wrap gap-2">
                  {can('product', p.status, 'edit') && (
                    <Link to={`/dashboard/myproducts/${p._id}/edit`} className="btn btn-sm">
                      {SELLING_TEXT.editAction}
                      <span className="sr-only"> {p.modelName}</span>
                    </Link>
                  )}
                  {can('product', p.status, 'withdraw') && (
                    <button
                      type="button"
                      className="btn btn-sm"
                      onClick={() => withdrawal.ask(p._id)}
                    >
                      {SELLING_TEXT.withdraw}
                      <span className="sr-only"> {p.modelName}</span>
                    </button>
                  )}
                  {can('product', p.status, 'relist') && !p.imeiBlocked && (
                    <button
                      type="button"
                      className="btn btn-sm btn-secondary"
                      disabled={relist.isPending}
                      onClick={() => relist.mutate(p._id)}
                    >
                      {SELLING_TEXT.relist}
                      <span className="sr-only"> {p.modelName}</span>
                    </button>
                  )}
                  {can('product', p.status, 'setPhotos') && (
                    <Link to={`/dashboard/myproducts/${p._id}/photos`} className="btn btn-sm">
                      {SELLING_TEXT.photosAction}
                      <span className="sr-only"> of {p.modelName}</span>
                    </Link>
                  )}
                  <DeleteButton what={p.modelName} onClick={() => deletion.ask(p._id)} />
                </div>
              </td>
            </tr>
          ))}
        </DataTable>
      ) : (
        <div className="space-y-4">
          <p>You have not listed a phone yet.</p>
          <div className="flex flex-wrap gap-2">
            <Link to="/dashboard/addaproduct" className="btn btn-primary">
              {TEXT.dashboard.addProduct}
            </Link>
            <Link to="/dashboard/addmany" className="btn">
              {BULK_TEXT.addMany}
            </Link>
          </div>
        </div>
      )}
      {products.length > 0 && whatSells && <WhatSellsSection data={whatSells} />}
      <ConfirmDialog {...deletion.dialog} />
      <ConfirmDialog {...advertising.dialog} />
      <ConfirmDialog {...stopping.dialog} />
      <ConfirmDialog {...withdrawal.dialog} />
    </DashboardPage>
  );
}
