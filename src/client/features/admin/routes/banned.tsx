import { DashboardPage } from '@client/components/layout/dashboard-page';
import { ConfirmDialog } from '@client/components/ui/confirm-dialog';
import { DataTable } from '@client/components/ui/data-table';
import { ShowMore } from '@client/components/ui/show-more';
import { ApiError } from '@client/lib/api-client';
import { formatDate } from '@client/lib/format';
import type { BannedAddress } from '@shared/entities';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import toast from 'react-hot-toast';
import { banEmail, bansQueryOptions, liftBan } from '../api/bans';

const messageOf = (error: unknown) =>
  error instanceof ApiError ? error.message : 'Something went wrong.';

const REASONS: Record<BannedAddress['reason'], string> = {
  deleted: 'Account deleted',
  banned: 'Banned',
};

/**
 * Banned Addresses (not in the spec): an address here cannot sign up or sign in. Deleting an
 * account puts its address here; the admin can ban any address, and lift a ban so that the
 * address may start a new account (with none of the old one's history).
 */
export function BannedRoute() {
  const queryClient = useQueryClient();
  const query = useInfiniteQuery(bansQueryOptions());
  const bans = query.data?.pages.flatMap((p) => p.data) ?? [];
  const [email, setEmail] = useState('');
  const [confirming, setConfirming] = useState<
    { kind: 'ban'; email: string } | { kind: 'lift'; email: string } | null
  >(null);
  // Banning removes an account, so the account lists change too.
  const reload = () => queryClient.invalidateQueries({ queryKey: ['users'] });

  const ban = useMutation({
    mutationFn: banEmail,
    onSuccess: async ({ deletedCount }, banned) => {
      toast.success(
        deletedCount > 0 ? `${banned} is banned and its account deleted.` : `${banned} is banned.`,
      );
      setEmail('');
      await reload();
    },
    onError: (error) => toast.error(messageOf(error)),
    onSettled: () => setConfirming(null),
  });

  const lift = useMutation({
    mutationFn: liftBan,
    onSuccess: async (_, lifted) => {
      toast.success(`${lifted} may sign up again.`);
      await reload();
    },
    onError: (error) => toast.error(messageOf(error)),
    onSettled: () => setConfirming(null),
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    if (address) setConfirming({ kind: 'ban', email: address });
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
      {query.isPending ? (
        <span className="loading loading-spinner" role="status" aria-label="Loading bans" />
      ) : bans.length === 0 ? (
        <p>No address is banned.</p>
      ) : (
        <DataTable columns={['#', 'Email', 'Reason', 'Since', 'Lift']}>
          {bans.map((b, i) => (
            <tr key={b.email}>
              <th scope="row">{i + 1}</th>
              <td>{b.email}</td>
              <td>{REASONS[b.reason]}</td>
              <td>{formatDate(b.bannedAt)}</td>
              <td>
                <button
                  type="button"
                  className="btn btn-sm"
                  onClick={() => setConfirming({ kind: 'lift', email: b.email })}
                >
                  Lift ban<span className="sr-only"> {b.email}</span>
                </button>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <ShowMore query={query} />
      <ConfirmDialog
        open={confirming !== null}
        message={
          confirming?.kind === 'ban'
            ? `Ban ${confirming.email}? Its account, if any, is deleted.`
            : `Let ${confirming?.email} sign up again?`
        }
        busy={ban.isPending || lift.isPending}
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          if (confirming?.kind === 'ban') ban.mutate(confirming.email);
          else if (confirming) lift.mutate(confirming.email);
        }}
      />
    </DashboardPage>
  );
}
