import { DashboardPage } from '@client/components/layout/dashboard-page';
import { ConfirmDialog } from '@client/components/ui/confirm-dialog';
import { cell, DataTable } from '@client/components/ui/data-table';
import { ShowMore } from '@client/components/ui/show-more';
import { toastError } from '@client/lib/feedback';
import { formatDate } from '@client/lib/format';
import { toast } from '@client/lib/toast';
import { useConfirmedAction } from '@client/lib/use-confirmed-action';
import type { BannedAddress } from '@shared/entities';
import { type QueryClient, useSuspenseInfiniteQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { bansQueryOptions, useBanEmail, useLiftBan } from '../api/bans';

const REASONS: Record<BannedAddress['reason'], string> = {
  deleted: 'Account deleted',
  banned: 'Banned',
};

const COLUMN = {
  index: '#',
  email: 'Email',
  reason: 'Reason',
  since: 'Since',
  lift: 'Lift',
} as const;

export const bannedLoader = (queryClient: QueryClient) => async () => {
  await queryClient.ensureInfiniteQueryData(bansQueryOptions());
  return null;
};

/**
 * Banned Addresses (not in the spec): an address here cannot sign up or sign in. Deleting an
 * account puts its address here; the admin can ban any address, and lift a ban so that the
 * address may start a new account (with none of the old one's history).
 */
export function BannedRoute() {
  const query = useSuspenseInfiniteQuery(bansQueryOptions());
  const bans = query.data.pages.flatMap((p) => p.data);
  const [email, setEmail] = useState('');

  const ban = useConfirmedAction(
    useBanEmail({
      onSuccess: ({ deletedCount }, banned) => {
        toast.success(
          deletedCount > 0
            ? `${banned} is banned and its account deleted.`
            : `${banned} is banned.`,
        );
        setEmail('');
      },
      onError: (error) => toastError(error),
    }),
    (address) => `Ban ${address}? Its account, if any, is deleted.`,
  );
  const lift = useConfirmedAction(
    useLiftBan({
      onSuccess: (_, lifted) => {
        toast.success(`${lifted} may sign up again.`);
      },
      onError: (error) => toastError(error),
    }),
    (address) => `Let ${address} sign up again?`,
  );

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    if (address) ban.ask(address);
  };

  return (
    <DashboardPage title="Banned Addresses">
      <form className="flex flex-wrap items-end gap-2" onSubmit={onSubmit}>
        <label className="flex flex-col gap-1" htmlFor="ban-email">
          <span>E-mail address to ban</span>
          <input
            id="ban-email"
            type="email"
            required
            maxLength={254}
            className="input"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </label>
        <button type="submit" className="btn btn-error">
          Ban
        </button>
      </form>
      {bans.length === 0 ? (
        <p>No address is banned.</p>
      ) : (
        <DataTable columns={Object.values(COLUMN)}>
          {bans.map((b, i) => (
            <tr key={b.email}>
              <th scope="row">{i + 1}</th>
              <td {...cell(COLUMN.email, 'title')}>{b.email}</td>
              <td {...cell(COLUMN.reason)}>{REASONS[b.reason]}</td>
              <td {...cell(COLUMN.since)}>{formatDate(b.bannedAt)}</td>
              <td {...cell(COLUMN.lift, 'action')}>
                <button type="button" className="btn btn-sm" onClick={() => lift.ask(b.email)}>
                  Lift ban<span className="sr-only"> {b.email}</span>
                </button>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <ShowMore query={query} />
      <ConfirmDialog {...ban.dialog} />
      <ConfirmDialog {...lift.dialog} />
    </DashboardPage>
  );
}
