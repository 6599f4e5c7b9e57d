import { call } from '@client/lib/api-client';
import { queryRoots } from '@client/lib/query-keys';
import { queryOptions } from '@tanstack/react-query';

/**
 * The signed-in person's own reports (issue 34). A decision arrives as a notification, which
 * refreshes the root live; a report sent from a phone's page invalidates it.
 */
export const myReportsQueryOptions = (email: string) =>
  queryOptions({
    queryKey: [...queryRoots.reports, 'mine', email],
    queryFn: () => call('myReports'),
  });
