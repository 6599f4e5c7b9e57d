/**
 * The page's live channel (issue 20): a stream of server-sent events from `/api/events`, read
 * with fetch so that it carries the access token like every call (EventSource cannot). It tells
 * only that something is new; the listener asks the usual calls. Lost, it opens again after 2
 * seconds, then longer up to a minute; the pages' own polling covers the time between.
 *
 * A page kept in the back/forward cache (issue 36) closes its stream as it is left and opens it
 * again when it is shown once more: what changed meanwhile is then asked for, as after any
 * reconnection.
 */
import { API_BASE, callRoutes } from '@shared/call-routes';
import { LIVE_RECONNECTED } from '@shared/live';
import { getAccessToken, session } from './auth/session';

const FIRST_RETRY_MS = 2_000;
const LONGEST_RETRY_MS = 60_000;

/** Calls `onEvent` with each event's name until the answer is called. */
export function subscribeLive(onEvent: (name: string) => void): () => void {
  let wait = FIRST_RETRY_MS;

  const readEvents = async (body: ReadableStream<Uint8Array>) => {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let buffered = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      wait = FIRST_RETRY_MS;
      buffered += decoder.decode(value, { stream: true });
      const blocks = buffered.split('\n\n');
      buffered = blocks.pop() ?? '';
      for (const block of blocks) {
        const name = /^event: (.+)$/m.exec(block)?.[1];
        if (name) onEvent(name);
      }
    }
  };

  const connect = async (signal: AbortSignal) => {
    while (!signal.aborted) {
      try {
        const token = getAccessToken();
        if (!token) return;
        const res = await fetch(`${API_BASE}${callRoutes.liveEvents.path}`, {
          headers: { authorization: `bearer ${token}`, accept: 'text/event-stream' },
          signal,
        });
        if (res.status === 401) await session.renewToken();
        else if (res.ok && res.body) {
          // Whatever happened while it was away is asked for once it is back.
          onEvent(LIVE_RECONNECTED);
          await readEvents(res.body);
        }
      } catch {
        // Offline, or the server restarted: tried again below.
      }
      if (signal.aborted) return;
      await new Promise((resolve) => setTimeout(resolve, wait));
      wait = Math.min(wait * 2, LONGEST_RETRY_MS);
    }
  };

  let stream = new AbortController();
  const open = () => {
    stream.abort();
    stream = new AbortController();
    wait = FIRST_RETRY_MS;
    void connect(stream.signal);
  };
  const left = (event: PageTransitionEvent) => {
    if (event.persisted) stream.abort();
  };
  const back = (event: PageTransitionEvent) => {
    if (event.persisted) open();
  };
  addEventListener('pagehide', left);
  addEventListener('pageshow', back);
  void connect(stream.signal);
  return () => {
    stream.abort();
    removeEventListener('pagehide', left);
    removeEventListener('pageshow', back);
  };
}
