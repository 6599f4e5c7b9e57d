import { DashboardPage } from '@client/components/layout/dashboard-page';
import { session } from '@client/lib/auth/session';
import { useAuth } from '@client/lib/auth/use-auth';
import { ensureCurrent } from '@client/lib/ensure-current';
import { formatDate } from '@client/lib/format';
import type { MyReport } from '@shared/risk';
import { REPORT_REASON_LABELS, type ReportStatus } from '@shared/risk-names';
import { type QueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { myReportsQueryOptions } from '../api/my-reports';
import { MY_REPORTS_TEXT } from '../texts';

export const myReportsLoader = (queryClient: QueryClient) => async () => {
  const user = await session.currentUser();
  // Signed out: the dashboard's own loader sends the visitor to sign in.
  if (user) await ensureCurrent(queryClient, myReportsQueryOptions(user.email));
  return null;
};

const BADGES: Record<ReportStatus, string> = {
  open: 'badge-info',
  upheld: 'badge-success',
  dismissed: 'badge-neutral',
};

/** My reports (issue 34): each listing or seller reported, why, when, and what became of it. */
export function MyReportsRoute() {
  const { user } = useAuth();
  const { data: reports } = useSuspenseQuery(myReportsQueryOptions(user?.email ?? ''));
  return (
    <DashboardPage title={MY_REPORTS_TEXT.title}>
      {reports.length === 0 ? (
        <div className="rounded-box bg-base-200 p-6">
          <h2 className="mb-2 text-lg font-semibold">{MY_REPORTS_TEXT.emptyTitle}</h2>
          <p className="mb-4">{MY_REPORTS_TEXT.empty}</p>
          <Link to="/" className="btn btn-primary btn-sm">
            {MY_REPORTS_TEXT.browse}
          </Link>
        </div>
      ) : (
        <>
          <p className="max-w-prose">{MY_REPORTS_TEXT.intro}</p>
          <ul className="grid gap-4 lg:grid-cols-2">
            {reports.map((report) => (
              <ReportCard key={report._id} report={report} />
            ))}
          </ul>
        </>
      )}
    </DashboardPage>
  );
}

function ReportCard({ report }: { report: MyReport }) {
  const headingId = `report-${report._id}`;
  const { kind, id, name } = report.target;
  const to = id ? (kind === 'listing' ? `/product/${id}` : `/seller/${id}`) : null;
  return (
    <li aria-labelledby={headingId} className="card card-border bg-base-100">
      <div className="card-body gap-2 p-4">
        <p className="text-sm font-semibold uppercase text-current/80">
          {kind === 'listing' ? MY_REPORTS_TEXT.listing : MY_REPORTS_TEXT.seller}
        </p>
        <h2 id={headingId} className="card-title text-lg break-words">
          {to ? (
            <Link to={to} className="link link-hover">
              {name}
            </Link>
          ) : (
            <>
              {name} <span className="text-sm font-normal">{MY_REPORTS_TEXT.removed}</span>
            </>
          )}
        </h2>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="font-semibold">{MY_REPORTS_TEXT.reason}</dt>
          <dd>{REPORT_REASON_LABELS[report.reason]}</dd>
          <dt className="font-semibold">{MY_REPORTS_TEXT.sent}</dt>
          <dd>{formatDate(report.createdAt)}</dd>
          <dt className="font-semibold">{MY_REPORTS_TEXT.status}</dt>
          <dd>
            <span className={`badge badge-sm ${BADGES[report.status]}`}>
              {MY_REPORTS_TEXT.statuses[report.status]}
            </span>
            {report.decidedAt && (
              <span className="ml-2">
                {MY_REPORTS_TEXT.decided} {formatDate(report.decidedAt)}
              </span>
            )}
          </dd>
          {report.note && (
            <>
              <dt className="font-semibold">{MY_REPORTS_TEXT.yourNote}</dt>
              <dd className="break-words whitespace-pre-line">{report.note}</dd>
            </>
          )}
        </dl>
      </div>
    </li>
  );
}
