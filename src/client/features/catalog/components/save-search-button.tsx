import { useOpenSoon } from '@client/components/ui/modal';
import { useResumeAfterSignIn } from '@client/lib/auth/resume-after-sign-in';
import { loadRole, useRole } from '@client/lib/auth/roles';
import { session } from '@client/lib/auth/session';
import { useAuthUser } from '@client/lib/auth/use-auth';
import { deferredModule, loadForTap } from '@client/lib/deferred-module';
import { searchName } from '@client/lib/search-summary';
import { toast } from '@client/lib/toast';
import { toastWithLink } from '@client/lib/toast-with-link';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { type FilterScope, type PhoneFilters, savedSearchOf } from '../phone-filters';
import { SAVE_SEARCH_TEXT } from '../texts';

/** The parameter that brings a visitor back from signing in with the dialog open. */
const SAVE_PARAM = 'save-search';

/** The dialog (and react-hook-form with it) is fetched when idle, not with the list (issue 36). */
const saveSearchDialog = deferredModule(() => import('./save-search-dialog'));

/**
 * "Save this search" (issue 33) for a buyer. A visitor is asked to sign in and comes back to the
 * same list with the dialog open, as the wish list's heart does; a seller or admin does not see
 * it once their role is known.
 */
export function SaveSearchButton({
  filters,
  scope,
}: {
  filters: PhoneFilters;
  scope: FilterScope;
}) {
  const user = useAuthUser();
  const role = useRole(user?.email ?? '');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  // The dialog is made just after the tap's frame (decision 063).
  const soon = useOpenSoon(open);
  const search = savedSearchOf(filters, scope);
  // Back from signing in: the dialog opens once, for a buyer.
  const { signInPath } = useResumeAfterSignIn(SAVE_PARAM, () => {
    void session.currentUser().then((current) => current && start());
  });

  const start = async () => {
    const current = await session.currentUser();
    if (!current) {
      toastWithLink(
        'error',
        SAVE_SEARCH_TEXT.signIn,
        { text: SAVE_SEARCH_TEXT.signInLink, to: signInPath() },
        navigate,
      );
    } else if ((await loadRole(queryClient, current.email)) !== 'buyer')
      toast.error(SAVE_SEARCH_TEXT.onlyBuyers);
    else if (await loadForTap(saveSearchDialog, SAVE_SEARCH_TEXT.notLoaded)) setOpen(true);
  };
  useEffect(() => saveSearchDialog.preloadWhenIdle(), []);
  const SaveSearchDialog = saveSearchDialog.current()?.SaveSearchDialog;

  if (user && !role.loading && role.role !== 'buyer') return null;
  return (
    <>
      <button
        type="button"
        className="btn btn-outline btn-primary btn-sm"
        aria-haspopup="dialog"
        onClick={() => void start()}
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          className="h-4 w-4 stroke-current"
          fill="none"
          strokeWidth="2"
        >
          <path d="M6 3h12v18l-6-4-6 4z" />
        </svg>
        {SAVE_SEARCH_TEXT.button}
      </button>
      {soon && SaveSearchDialog && (
        <SaveSearchDialog
          search={search}
          defaultName={searchName(new URLSearchParams(search))}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}
