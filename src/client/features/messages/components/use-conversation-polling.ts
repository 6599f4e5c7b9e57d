import { useEffect } from 'react';
import { useRefreshConversations } from '../api/messages';

/**
 * Asks for the conversations on this page every half minute: the live stream (lib/live-refresh.ts)
 * tells of each message at once, and this covers a stream a proxy will not carry.
 */
export function useConversationPolling() {
  const refresh = useRefreshConversations();
  useEffect(() => {
    const timer = setInterval(() => void refresh(), 30_000);
    return () => clearInterval(timer);
  }, [refresh]);
}
