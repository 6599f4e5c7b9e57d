import { DashboardPage } from '@client/components/layout/dashboard-page';
import { useMatches } from 'react-router';

/** A page the feature issues fill: until then it shows the heading its route names (`handle.title`). */
export function DashboardPageFromRoute() {
  const handle = useMatches().at(-1)?.handle as { title?: string } | undefined;
  return <DashboardPage title={handle?.title ?? ''} />;
}
