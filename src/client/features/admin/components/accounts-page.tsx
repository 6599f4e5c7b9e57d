import { DashboardPage } from '@client/components/layout/dashboard-page';
import { ConfirmDialog } from '@client/components/ui/confirm-dialog';
import { cell, DataTable, DeleteButton } from '@client/components/ui/data-table';
import { ShowMore } from '@client/components/ui/show-more';
import { deleteFeedback, toastError } from '@client/lib/feedback';
import { toast } from '@client/lib/toast';
import { useConfirmedAction } from '@client/lib/use-confirmed-action';
import { USER_STATUS_VERIFIED } from '@shared/constants';
import { TEXT } from '@shared/texts';
import { useSuspenseInfiniteQuery } from '@tanstack/react-query';
import {
  type AccountKind,
  accountsQueryOptions,
  useDeleteAccount,
  useUnverifySeller,
  useVerifySeller,
} from '../api/users';

/** Un-verify (issue 19; not the spec's): its button, question and outcome. */
const UNVERIFY_TEXT = {
  action: 'Un-verify',
  confirm: (email: string) => `Take back the verification of ${email}?`,
  done: 'The seller is no longer verified.',
} as const;

const COLUMN = {
  index: '#',
  name: 'Name',
  email: 'Email',
  status: TEXT.dashboard.verificationStatus,
  delete: 'Delete',
} as const;
const BUYER_COLUMNS = [COLUMN.index, COLUMN.name, COLUMN.email, COLUMN.delete];
const SELLER_COLUMNS = Object.values(COLUMN);

/** All Sellers or All Buyers: index, Name, Email, (Varification Status,) Delete. */
export function AccountsPage({ kind }: { kind: AccountKind }) {
  const query = useSuspenseInfiniteQuery(accountsQueryOptions(kind));
  const accounts = query.data.pages.flatMap((p) => p.data);
  const deletion = useConfirmedAction(
    useDeleteAccount(
      kind,
      deleteFeedback(kind === 'seller' ? TEXT.toast.sellerDeleted : TEXT.toast.userDeleted),
    ),
    TEXT.confirm.delete,
  );
  const verify = useVerifySeller({
    onSuccess: ({ modifiedCount }) => {
      if (modifiedCount > 0) toast.success(TEXT.toast.userVerified);
    },
    onError: (error) => toastError(error),
  });
  const unverify = useConfirmedAction(
    useUnverifySeller({
      onSuccess: ({ modifiedCount }) => {
        if (modifiedCount > 0) toast.success(UNVERIFY_TEXT.done);
      },
      onError: (error) => toastError(error),
    }),
    UNVERIFY_TEXT.confirm,
  );

  return (
    <DashboardPage title={kind === 'seller' ? TEXT.dashboard.allSellers : TEXT.dashboard.allBuyers}>
      {accounts.length === 0 ? (
        <p>No {kind === 'seller' ? 'sellers' : 'buyers'} yet.</p>
      ) : (
        <DataTable columns={kind === 'seller' ? SELLER_COLUMNS : BUYER_COLUMNS}>
          {accounts.map((user, i) => (
            <tr key={user._id}>
              <th scope="row">{i + 1}</th>
              <td {...cell(COLUMN.name, 'title')}>{user.name}</td>
              <td {...cell(COLUMN.email)}>{user.email}</td>
              {kind === 'seller' && (
                <td {...cell(COLUMN.status, 'action')}>
                  {user.userStatus === USER_STATUS_VERIFIED ? (
                    <div className="flex flex-wrap items-center gap-2">
                      <span className="badge badge-info">{TEXT.dashboard.verified}</span>
                      <button
                        type="button"
                        className="btn btn-ghost btn-sm"
                        onClick={() => unverify.ask(user.email)}
                      >
                        {UNVERIFY_TEXT.action}
                        <span className="sr-only"> {user.email}</span>
                      </button>
                    </div>
                  ) : (
                    <button
                      type="button"
                      className="btn btn-secondary btn-sm"
                      disabled={verify.isPending}
                      onClick={() => verify.mutate(user.email)}
                    >
                      {TEXT.dashboard.verify}
                      <span className="sr-only"> {user.email}</span>
                    </button>
                  )}
                </td>
              )}
              <td {...cell(COLUMN.delete, 'action')}>
                <DeleteButton what={user.email} onClick={() => deletion.ask(user._id)} />
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <ShowMore query={query} />
      <ConfirmDialog {...deletion.dialog} />
      <ConfirmDialog {...unverify.dialog} />
    </DashboardPage>
  );
}
