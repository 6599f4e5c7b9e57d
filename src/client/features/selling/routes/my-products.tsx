import { DashboardPage } from '@client/components/layout/dashboard-page';
import { ConfirmDialog } from '@client/components/ui/confirm-dialog';
import { cell, DataTable, DeleteButton } from '@client/components/ui/data-table';
import { session } from '@client/lib/auth/session';
import { useAuth } from '@client/lib/auth/use-auth';
import { deleteFeedback, toastError } from '@client/lib/feedback';
import { formatDollars } from '@client/lib/format';
import { useConfirmedAction } from '@client/lib/use-confirmed-action';
import { can } from '@shared/order-process';
import { TEXT } from '@shared/texts';
import { type QueryClient, useSuspenseQuery } from '@tanstack/react-query';
import toast from 'react-hot-toast';
import { Link } from 'react-router';
import { myProductsQueryOptions, useAdvertiseProduct, useDeleteProduct } from '../api/my-products';
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
  if (user) await queryClient.ensureQueryData(myProductsQueryOptions(user.email));
  return null;
};

/**
 * My Products: number, Name, Price, Status, Avertise, Action (spec section 2); Action adds the
 * photos of an unsold phone to the spec's Delete.
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

  return (
    <DashboardPage title={TEXT.dashboard.myProducts}>
      {products.length > 0 ? (
        <DataTable columns={PRODUCT_COLUMNS}>
          {products.map((p, i) => (
            <tr key={p._id}>
              <th scope="row">{i + 1}</th>
              <td {...cell(COLUMN.name, 'title')}>{p.modelName}</td>
              <td {...cell(COLUMN.price)}>{formatDollars(p.resellPrice)}</td>
              <td {...cell(COLUMN.status)}>
                {p.status === 'sold' ? TEXT.product.sold : TEXT.dashboard.available}
              </td>
              <td {...cell(COLUMN.advertise, 'action')}>
                {can('product', p.status, 'advertise') && (
                  <button
                    type="button"
                    className="btn btn-secondary btn-sm"
                    onClick={() => advertising.ask(p._id)}
                  >
                    {TEXT.dashboard.avertise}
                    <span className="sr-only"> {p.modelName}</span>
                  </button>
                )}
              </td>
              <td {...cell(COLUMN.action, 'action')}>
                <div className="flex flex-wrap gap-2">
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
          <Link to="/dashboard/addaproduct" className="btn btn-primary">
            {TEXT.dashboard.addProduct}
          </Link>
        </div>
      )}
      <ConfirmDialog {...deletion.dialog} />
      <ConfirmDialog {...advertising.dialog} />
    </DashboardPage>
  );
}
