import { subscribeLive } from '@client/lib/live-events';
import { useEffect } from 'react';
import { useRefreshConversations } from '../api/messages';

/** Keeps the conversations on this page current: told live, and asked every half minute. */
export function useLiveRefresh() {
  const refresh = useRefreshConversations();
  useEffect(() => {
    const stop = subscribeLive(() => void refresh());
    const timer = setInterval(() => void refresh(), 30_000);
    return () => {
      stop();
      clearInterval(timer);
    };
  }, [refresh]);
}
