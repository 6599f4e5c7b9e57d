import type { ReactNode } from 'react';
import { useMatches } from 'react-router';

/** A dashboard page's frame: its heading, then what the page holds. */
export function DashboardPage({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <section aria-labelledby="dashboard-heading" className="space-y-6">
      <h1 id="dashboard-heading" className="text-3xl font-bold">
        {title}
      </h1>
      {children}
    </section>
  );
}

/** A page the feature issues fill: until then it shows the heading its route names (`handle.title`). */
export function DashboardPageFromRoute() {
  const handle = useMatches().at(-1)?.handle as { title?: string } | undefined;
  return <DashboardPage title={handle?.title ?? ''} />;
}
