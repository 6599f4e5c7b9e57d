/**
 * The live stream and the back/forward cache (issue 36): a page kept in the cache closes its
 * stream as it is left (an open stream is no reason to keep a page out of the cache, and no
 * server should hold a connection for a page nobody sees), and opens it again when the page is
 * shown once more, asking for what changed meanwhile.
 */
import { LIVE_RECONNECTED } from '@shared/live';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('./auth/session', () => ({
  getAccessToken: () => 'a-token',
  session: { renewToken: vi.fn() },
}));

const { subscribeLive } = await import('./live-events');

/** A fetch whose answers are streams left open, each aborted with its request's signal. */
function openStreams() {
  const signals: AbortSignal[] = [];
  const fetchMock = vi.fn(async (_url: string, init: RequestInit) => {
    const signal = init.signal as AbortSignal;
    signals.push(signal);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        signal.addEventListener('abort', () => controller.error(signal.reason));
      },
    });
    return new Response(body, { status: 200 });
  });
  vi.stubGlobal('fetch', fetchMock);
  return signals;
}

const transition = (type: 'pagehide' | 'pageshow', persisted: boolean) => {
  const event = new Event(type) as PageTransitionEvent;
  Object.defineProperty(event, 'persisted', { value: persisted });
  dispatchEvent(event);
};

describe('the live stream and the back/forward cache', () => {
  let stop: (() => void) | undefined;
  beforeEach(() => {
    vi.useRealTimers();
  });
  afterEach(() => {
    stop?.();
    vi.unstubAllGlobals();
  });

  it('closes as the page goes into the cache and opens again, asking what changed, when it is back', async () => {
    const signals = openStreams();
    const events: string[] = [];
    stop = subscribeLive((name) => events.push(name));
    await vi.waitFor(() => expect(events).toEqual([LIVE_RECONNECTED]));

    transition('pagehide', true);
    expect(signals[0]?.aborted).toBe(true);

    transition('pageshow', true);
    await vi.waitFor(() => expect(events).toEqual([LIVE_RECONNECTED, LIVE_RECONNECTED]));
    expect(signals).toHaveLength(2);
    expect(signals[1]?.aborted).toBe(false);
  });

  it('leaves the stream alone on a page that is not kept, and closes it for good when asked', async () => {
    const signals = openStreams();
    const events: string[] = [];
    stop = subscribeLive((name) => events.push(name));
    await vi.waitFor(() => expect(events).toHaveLength(1));
    transition('pagehide', false);
    transition('pageshow', false);
    expect(signals).toHaveLength(1);
    expect(signals[0]?.aborted).toBe(false);

    stop();
    stop = undefined;
    expect(signals[0]?.aborted).toBe(true);
    // Once closed, a page shown from the cache opens nothing.
    transition('pageshow', true);
    await new Promise((r) => setTimeout(r, 20));
    expect(signals).toHaveLength(1);
  });
});
