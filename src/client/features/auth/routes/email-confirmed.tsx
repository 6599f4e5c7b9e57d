import { PageHead } from '@client/lib/page-head';
import { TEXT } from '@shared/texts';
import { Link, useSearchParams } from 'react-router';
import { ACCOUNT_TEXT } from '../texts';

/**
 * Where the welcome mail's confirmation link lands (issue 31): the server's provider comes back
 * here once the address is confirmed, or with `?error=` when the link has expired or was used.
 */
export function EmailConfirmedRoute() {
  const [params] = useSearchParams();
  const failed = params.has('error');
  const title = failed ? ACCOUNT_TEXT.notConfirmedTitle : ACCOUNT_TEXT.confirmedTitle;
  return (
    <section className="mx-auto max-w-md">
      <PageHead title={title} noindex />
      <div
        role="status"
        className={`card bg-base-100 shadow-sm ring-1 ${failed ? 'ring-warning' : 'ring-success'}`}
      >
        <div className="card-body gap-3">
          <h1 className="card-title text-2xl">{title}</h1>
          <p>{failed ? ACCOUNT_TEXT.notConfirmed : ACCOUNT_TEXT.confirmed}</p>
          <div className="card-actions">
            <Link to="/" className="btn btn-primary">
              {ACCOUNT_TEXT.browsePhones}
            </Link>
            <Link to="/dashboard" className="btn btn-outline">
              {TEXT.nav.dashboard}
            </Link>
          </div>
        </div>
      </div>
    </section>
  );
}
