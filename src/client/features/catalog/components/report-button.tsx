import { useResumeAfterSignIn } from '@client/lib/auth/resume-after-sign-in';
import { accountIdOf, session } from '@client/lib/auth/session';
import { useAuthUser } from '@client/lib/auth/use-auth';
import { loadChunk } from '@client/lib/chunk-load';
import { lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router';
import { REPORT_TEXT } from '../texts';

// Loaded when opened: a phone's and a seller's pages do not carry the dialog (issue 34).
const ReportDialog = lazy(() =>
  loadChunk(() => import('./report-dialog')).then((m) => ({ default: m.ReportDialog })),
);

/** The parameter that brings a visitor back from signing in with the dialog open. */
const REPORT_PARAM = 'report';

/**
 * "Report this listing" or "Report this seller" (issue 34): a quiet link-style button for anyone
 * but the seller concerned. A visitor is sent to sign in and comes back with the dialog open.
 */
export function ReportButton({
  kind,
  id,
  name,
  sellerId,
  className = '',
}: {
  kind: 'listing' | 'seller';
  /** The listing's or the seller's id. */
  id: string;
  name: string;
  /** Whose it is: they see no button. */
  sellerId: string;
  className?: string;
}) {
  const user = useAuthUser();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  // Back from signing in: the dialog opens once, unless the phone turned out to be theirs.
  const { signInPath } = useResumeAfterSignIn(REPORT_PARAM, () => {
    void session.currentUser().then((current) => {
      if (current && accountIdOf(current) !== sellerId) setOpen(true);
    });
  });

  const start = async () => {
    if (await session.currentUser()) return setOpen(true);
    navigate(signInPath());
  };

  if (accountIdOf(user) === sellerId) return null;
  return (
    <>
      <button
        type="button"
        className={`btn btn-link btn-sm px-0 text-base-content/80 ${className}`}
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
          <path d="M5 21V4h11l-1.5 4L16 12H5" />
        </svg>
        {kind === 'listing' ? REPORT_TEXT.listingButton : REPORT_TEXT.sellerButton}
      </button>
      {open && (
        <Suspense fallback={null}>
          <ReportDialog kind={kind} id={id} name={name} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
