import { DashboardPage } from '@client/components/layout/dashboard-page';
import { ConfirmDialog } from '@client/components/ui/confirm-dialog';
import { DataTable, DeleteButton } from '@client/components/ui/data-table';
import { ShowMore } from '@client/components/ui/show-more';
import { ApiError } from '@client/lib/api-client';
import { USER_STATUS_VERIFIED } from '@shared/constants';
import type { User } from '@shared/entities';
import { TEXT } from '@shared/texts';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { type AccountKind, accountsQueryOptions, deleteAccount, verifySeller } from '../api/users';

const messageOf = (error: unknown) =>
  error instanceof ApiError ? error.message : 'Something went wrong.';

const BUYER_COLUMNS = ['#', 'Name', 'Email', 'Delete'];
const SELLER_COLUMNS = ['#', 'Name', 'Email', TEXT.dashboard.verificationStatus, 'Delete'];

/** All Sellers or All Buyers: index, Name, Email, (Varification Status,) Delete. */
export function AccountsPage({ kind }: { kind: AccountKind }) {
  const queryClient = useQueryClient();
  const query = useInfiniteQuery(accountsQueryOptions(kind));
  const accounts = query.data?.pages.flatMap((p) => p.data) ?? [];
  const [deleting, setDeleting] = useState<User | null>(null);
  const reload = () => queryClient.invalidateQueries({ queryKey: ['users', kind] });

  const remove = useMutation({
    mutationFn: (user: User) => deleteAccount(user._id),
    onSuccess: async ({ deletedCount }) => {
      if (deletedCount > 0)
        toast.success(kind === 'seller' ? TEXT.toast.sellerDeleted : TEXT.toast.userDeleted);
      await reload();
    },
    onError: (error) => toast.error(messageOf(error)),
    onSettled: () => setDeleting(null),
  });

  const verify = useMutation({
    mutationFn: (user: User) => verifySeller(user.email),
    onSuccess: async ({ modifiedCount }) => {
      if (modifiedCount > 0) {
        toast.success(TEXT.toast.userVerified);
        await reload();
      }
    },
    onError: (error) => toast.error(messageOf(error)),
  });

  return (
    <DashboardPage title={kind === 'seller' ? TEXT.dashboard.allSellers : TEXT.dashboard.allBuyers}>
      {query.isPending ? (
        <span className="loading loading-spinner" role="status" aria-label="Loading accounts" />
      ) : accounts.length === 0 ? (
        <p>No {kind === 'seller' ? 'sellers' : 'buyers'} yet.</p>
      ) : (
        <DataTable columns={kind === 'seller' ? SELLER_COLUMNS : BUYER_COLUMNS}>
          {accounts.map((user, i) => (
            <tr key={user._id}>
              <th scope="row">{i + 1}</th>
              <td>{user.name}</td>
              <td>{user.email}</td>
              {kind === 'seller' && (
                <td>
                  {user.userStatus === USER_STATUS_VERIFIED ? (
                    <span className="badge badge-info">{TEXT.dashboard.verified}</span>
                  ) : (
                    <button
                      type="button"
                      className="btn btn-secondary btn-sm"
                      disabled={verify.isPending}
                      onClick={() => verify.mutate(user)}
                    >
                      {TEXT.dashboard.verify}
                      <span className="sr-only"> {user.email}</span>
                    </button>
                  )}
                </td>
              )}
              <td>
                <DeleteButton what={user.email} onClick={() => setDeleting(user)} />
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <ShowMore query={query} />
      <ConfirmDialog
        open={deleting !== null}
        message={TEXT.confirm.delete}
        busy={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting)}
      />
    </DashboardPage>
  );
}
