import { call } from '@client/lib/api-client';
import { queryRoots } from '@client/lib/query-keys';
import type { MailSettings } from '@shared/api';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

/** How often the bell asks for news while a page is open (and on coming back to the tab). */
export const BELL_POLL_MS = 30_000;
const ROOT = queryRoots.notifications;

export const unreadCountQueryOptions = () =>
  queryOptions({
    queryKey: [...ROOT, 'unread'],
    queryFn: () => call('unreadNotifications'),
    refetchInterval: BELL_POLL_MS,
    refetchOnWindowFocus: true,
    staleTime: 5_000,
  });

export const notificationsQueryOptions = () =>
  queryOptions({
    queryKey: [...ROOT, 'list'],
    queryFn: () => call('notifications', { query: { limit: 20 } }),
  });

/** Marks some (or, without ids, all) read, then refreshes the count and the list. */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids?: string[]) => call('readNotifications', { body: ids ? { ids } : {} }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ROOT }),
  });
}

export const mailSettingsQueryOptions = () =>
  queryOptions({ queryKey: queryRoots.mailSettings, queryFn: () => call('mailSettings') });

export function useSaveMailSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: MailSettings) => call('saveMailSettings', { body: settings }),
    onSuccess: (saved) => queryClient.setQueryData(mailSettingsQueryOptions().queryKey, saved),
  });
}
