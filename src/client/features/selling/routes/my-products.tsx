import { DashboardPage } from '@client/components/layout/dashboard-page';
import { ConfirmDialog } from '@client/components/ui/confirm-dialog';
import { DataTable, DeleteButton } from '@client/components/ui/data-table';
import { ApiError } from '@client/lib/api-client';
import { useAuth } from '@client/lib/auth/use-auth';
import { formatDollars } from '@client/lib/format';
import type { Product } from '@shared/entities';
import { TEXT } from '@shared/texts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { advertiseProduct, deleteProduct, myProductsQueryOptions } from '../api/my-products';

type Pending = { action: 'delete' | 'advertise'; product: Product } | null;

const messageOf = (error: unknown) =>
  error instanceof ApiError ? error.message : 'Something went wrong.';

const PRODUCT_COLUMNS = ['#', 'Name', 'Price', 'Status', TEXT.dashboard.avertise, 'Action'];

/** My Products: number, Name, Price, Status, Avertise, Action (spec section 2). */
export function MyProductsRoute() {
  const { user } = useAuth();
  const email = user?.email ?? '';
  const queryClient = useQueryClient();
  const { data: products, isPending } = useQuery(myProductsQueryOptions(email));
  const [pending, setPending] = useState<Pending>(null);

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['products', email] }),
      queryClient.invalidateQueries({ queryKey: ['category'] }),
      queryClient.invalidateQueries({ queryKey: ['advertise'] }),
    ]);

  const remove = useMutation({
    mutationFn: deleteProduct,
    onSuccess: async ({ deletedCount }) => {
      if (deletedCount > 0) toast.success(TEXT.toast.productDeleted);
      await refresh();
    },
    onError: (error) => toast.error(messageOf(error)),
    onSettled: () => setPending(null),
  });

  const advertise = useMutation({
    mutationFn: advertiseProduct,
    onSuccess: async (result) => {
      if (result.acknowledged) toast.success(TEXT.toast.advertised);
      else toast.error(result.message ?? 'The product was not advertised.');
      await refresh();
    },
    onError: (error) => toast.error(messageOf(error)),
    onSettled: () => setPending(null),
  });

  return (
    <DashboardPage title={TEXT.dashboard.myProducts}>
      {isPending ? (
        <span
          className="loading loading-spinner"
          role="status"
          aria-label="Loading your products"
        />
      ) : products && products.length > 0 ? (
        <DataTable columns={PRODUCT_COLUMNS}>
          {products.map((p, i) => (
            <tr key={p._id}>
              <th scope="row">{i + 1}</th>
              <td>{p.modelName}</td>
              <td>{formatDollars(p.resellPrice)}</td>
              <td>{p.status === 'sold' ? TEXT.product.sold : TEXT.dashboard.available}</td>
              <td>
                {p.status !== 'sold' && (
                  <button
                    type="button"
                    className="btn btn-secondary btn-sm"
                    onClick={() => setPending({ action: 'advertise', product: p })}
                  >
                    {TEXT.dashboard.avertise}
                    <span className="sr-only"> {p.modelName}</span>
                  </button>
                )}
              </td>
              <td>
                <DeleteButton
                  what={p.modelName}
                  onClick={() => setPending({ action: 'delete', product: p })}
                />
              </td>
            </tr>
          ))}
        </DataTable>
      ) : (
        <p>You have not listed a phone yet.</p>
      )}
      <ConfirmDialog
        open={pending !== null}
        message={pending?.action === 'advertise' ? TEXT.confirm.advertise : TEXT.confirm.delete}
        busy={remove.isPending || advertise.isPending}
        onCancel={() => setPending(null)}
        onConfirm={() => {
          if (!pending) return;
          if (pending.action === 'delete') remove.mutate(pending.product._id);
          else advertise.mutate(pending.product._id);
        }}
      />
    </DashboardPage>
  );
}
