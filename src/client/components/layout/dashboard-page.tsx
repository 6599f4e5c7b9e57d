import { PageHead } from '@client/lib/page-head';
import type { ReactNode } from 'react';

/** A dashboard page's frame: its heading, then what the page holds. */
export function DashboardPage({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <section aria-labelledby="dashboard-heading" className="space-y-6">
      <PageHead title={title} />
      <h1 id="dashboard-heading" className="text-3xl font-bold">
        {title}
      </h1>
      {children}
    </section>
  );
}
