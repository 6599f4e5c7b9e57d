import { call } from '@client/lib/api-client';
import { queryRoots } from '@client/lib/query-keys';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

const ROOT = queryRoots.conversations;

export const conversationsQueryOptions = () =>
  queryOptions({ queryKey: [...ROOT, 'list'], queryFn: () => call('conversations') });

export const conversationQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...ROOT, 'one', id],
    queryFn: () => call('conversation', { params: { id } }),
  });

export const reportedMessagesQueryOptions = () =>
  queryOptions({ queryKey: [...ROOT, 'reported'], queryFn: () => call('reportedMessages') });

/** Refreshes every conversation shown (after a write here, or when told live of one). */
export const useRefreshConversations = () => {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ROOT });
};

export function useStartConversation() {
  const refresh = useRefreshConversations();
  return useMutation({
    mutationFn: (input: { productId: string; body: string }) =>
      call('startConversation', { body: input }),
    onSuccess: refresh,
  });
}

export function useSendMessage(conversationId: string) {
  const refresh = useRefreshConversations();
  return useMutation({
    mutationFn: (body: string) =>
      call('sendMessage', { params: { id: conversationId }, body: { body } }),
    onSuccess: refresh,
  });
}

export function useReportMessage() {
  const refresh = useRefreshConversations();
  return useMutation({
    mutationFn: (input: { id: string; reason: string }) =>
      call('reportMessage', { params: { id: input.id }, body: { reason: input.reason } }),
    onSuccess: refresh,
  });
}
