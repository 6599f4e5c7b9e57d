import { DashboardPage } from '@client/components/layout/dashboard-page';
import { ConfirmDialog } from '@client/components/ui/confirm-dialog';
import { Modal } from '@client/components/ui/modal';
import {
  nameRefused,
  SAVED_SEARCH_FIELD_TEXT,
  SavedSearchFields,
  type SavedSearchValues,
} from '@client/components/ui/saved-search-fields';
import { session } from '@client/lib/auth/session';
import { useAuth } from '@client/lib/auth/use-auth';
import { ensureCurrent } from '@client/lib/ensure-current';
import { deleteFeedback, toastError } from '@client/lib/feedback';
import { describeSearch } from '@client/lib/search-summary';
import { toast } from '@client/lib/toast';
import { useConfirmedAction } from '@client/lib/use-confirmed-action';
import type { SavedSearch } from '@shared/api';
import { type QueryClient, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import {
  savedSearchesQueryOptions,
  seeSavedSearch,
  useDeleteSavedSearch,
  useEditSavedSearch,
} from '../api/saved-searches';
import { SAVED_SEARCHES_TEXT } from '../texts';

export const savedSearchesLoader = (queryClient: QueryClient) => async () => {
  const user = await session.currentUser();
  // Signed out: the dashboard's own loader sends the visitor to sign in.
  if (user) await ensureCurrent(queryClient, savedSearchesQueryOptions(user.email));
  return null;
};

/** The saved searches page (issue 33): each search, its counts, and what may be done to it. */
export function SavedSearchesRoute() {
  const { user } = useAuth();
  const email = user?.email ?? '';
  const { data: searches } = useSuspenseQuery(savedSearchesQueryOptions(email));
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [editing, setEditing] = useState<SavedSearch | null>(null);
  const edit = useEditSavedSearch(email, { onError: (error) => toastError(error) });
  const deletion = useConfirmedAction(
    useDeleteSavedSearch(email, deleteFeedback(SAVED_SEARCHES_TEXT.deleted)),
    (id: string) =>
      SAVED_SEARCHES_TEXT.deleteQuestion(searches.find((s) => s._id === id)?.name ?? ''),
  );

  /** Its "new" count starts again once the buyer looks; a failed mark does not stop the look. */
  const open = async (search: SavedSearch) => {
    await seeSavedSearch(search._id).catch(() => undefined);
    void queryClient.invalidateQueries({ queryKey: savedSearchesQueryOptions(email).queryKey });
    navigate(`/search?${search.search}`);
  };

  const togglePause = (search: SavedSearch) =>
    edit.mutate(
      { id: search._id, edit: { paused: !search.paused } },
      {
        onSuccess: () =>
          toast.success(
            search.paused ? SAVED_SEARCHES_TEXT.resumedToast : SAVED_SEARCHES_TEXT.pausedToast,
          ),
      },
    );

  return (
    <DashboardPage title={SAVED_SEARCHES_TEXT.title}>
      {searches.length === 0 ? (
        <div className="rounded-box bg-base-200 p-6">
          <h2 className="mb-2 text-lg font-semibold">{SAVED_SEARCHES_TEXT.emptyTitle}</h2>
          <p className="mb-4">
            {SAVED_SEARCHES_TEXT.emptyBefore}
            <strong>{SAVED_SEARCHES_TEXT.saveButton}</strong>
            {SAVED_SEARCHES_TEXT.emptyAfter}
          </p>
          <Link to="/search" className="btn btn-primary btn-sm">
            {SAVED_SEARCHES_TEXT.emptyLink}
          </Link>
        </div>
      ) : (
        <ul className="grid gap-4 lg:grid-cols-2">
          {searches.map((search) => (
            <SavedSearchCard
              key={search._id}
              search={search}
              onOpen={() => void open(search)}
              onEdit={() => setEditing(search)}
              onTogglePause={() => togglePause(search)}
              onDelete={() => deletion.ask(search._id)}
              busy={edit.isPending && edit.variables?.id === search._id}
            />
          ))}
        </ul>
      )}
      {editing && (
        <EditSavedSearchDialog search={editing} email={email} onClose={() => setEditing(null)} />
      )}
      <ConfirmDialog {...deletion.dialog} />
    </DashboardPage>
  );
}

function SavedSearchCard({
  search,
  onOpen,
  onEdit,
  onTogglePause,
  onDelete,
  busy,
}: {
  search: SavedSearch;
  onOpen: () => void;
  onEdit: () => void;
  onTogglePause: () => void;
  onDelete: () => void;
  busy: boolean;
}) {
  const summary = describeSearch(new URLSearchParams(search.search)).join(' · ');
  const headingId = `saved-search-${search._id}`;
  // Each button's name says which search it acts on, its visible word first.
  const named = (action: string) => ({
    'aria-label': `${action} ${search.name}`,
    children: action,
  });
  return (
    <li
      aria-labelledby={headingId}
      className={`card card-border bg-base-100 ${search.paused ? 'opacity-80' : ''}`}
    >
      <div className="card-body gap-2 p-4">
        <div className="flex flex-wrap items-center gap-2">
          <h2 id={headingId} className="card-title text-lg break-words">
            {search.name}
          </h2>
          {search.newSinceSeen > 0 && (
            <span className="badge badge-primary">
              {SAVED_SEARCHES_TEXT.fresh(search.newSinceSeen)}
              <span className="sr-only"> {SAVED_SEARCHES_TEXT.freshMeaning}</span>
            </span>
          )}
          {search.paused && <span className="badge badge-ghost">{SAVED_SEARCHES_TEXT.paused}</span>}
        </div>
        <p className="text-sm text-current/80">{summary || SAVED_SEARCHES_TEXT.everyPhone}</p>
        <p className="font-semibold">
          {SAVED_SEARCHES_TEXT.matching(search.matching, search.matchingCapped)}
        </p>
        <p className="text-sm">
          {search.paused
            ? SAVED_SEARCHES_TEXT.pausedNote
            : SAVED_SEARCH_FIELD_TEXT.frequency[search.frequency]}
        </p>
        <div className="card-actions mt-2 flex-wrap">
          <button
            type="button"
            className="btn btn-primary btn-sm"
            onClick={onOpen}
            {...named(SAVED_SEARCHES_TEXT.open)}
          />
          <button
            type="button"
            className="btn btn-sm"
            onClick={onEdit}
            {...named(SAVED_SEARCHES_TEXT.edit)}
          />
          <button
            type="button"
            className="btn btn-sm"
            onClick={onTogglePause}
            disabled={busy}
            {...named(search.paused ? SAVED_SEARCHES_TEXT.resume : SAVED_SEARCHES_TEXT.pause)}
          />
          <button
            type="button"
            className="btn btn-error btn-sm"
            onClick={onDelete}
            {...named(SAVED_SEARCHES_TEXT.delete)}
          />
        </div>
      </div>
    </li>
  );
}

function EditSavedSearchDialog({
  search,
  email,
  onClose,
}: {
  search: SavedSearch;
  email: string;
  onClose: () => void;
}) {
  const form = useForm<SavedSearchValues>({
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    defaultValues: { name: search.name, frequency: search.frequency },
  });
  const edit = useEditSavedSearch(email);
  const onSubmit = async ({ name, frequency }: SavedSearchValues) => {
    try {
      await edit.mutateAsync({ id: search._id, edit: { name: name.trim(), frequency } });
    } catch (error) {
      if (!nameRefused(error, form.setError)) toastError(error, SAVED_SEARCHES_TEXT.notUpdated);
      return;
    }
    toast.success(SAVED_SEARCHES_TEXT.updated);
    onClose();
  };
  return (
    <Modal open onClose={onClose} title={SAVED_SEARCHES_TEXT.editTitle}>
      <form onSubmit={form.handleSubmit(onSubmit)} noValidate>
        <SavedSearchFields form={form} idPrefix="edit-saved-search" />
        <div className="modal-action">
          <button type="button" className="btn" onClick={onClose}>
            {SAVED_SEARCHES_TEXT.cancel}
          </button>
          <button type="submit" className="btn btn-primary" disabled={edit.isPending}>
            {edit.isPending && (
              <span className="loading loading-spinner loading-sm" aria-hidden="true" />
            )}
            {SAVED_SEARCHES_TEXT.save}
          </button>
        </div>
      </form>
    </Modal>
  );
}
