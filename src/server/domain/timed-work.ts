/**
 * The timed work: holds past their deadline are released, money steps a crash or a provider
 * outage left unfinished are asked again, and photos on no phone for a day are removed. Each round is a sweep of what is
 * due, so it catches up after downtime by itself, and each sale changes once whichever server's
 * round reaches it first (rows are locked and their stage checked; see decision 022).
 */
import type { LoosePhotos } from '../images/loose-photos';
import { settlePayment, unsettledPayments } from '../payments/settle';
import { expireHolds, type Sales } from './order-process';

/** One round: expire what is due, then finish unfinished money steps. */
export async function runTimedWork(sales: Sales, now = new Date()) {
  let expired = 0;
  for (let batch = await expireHolds(sales, now); batch > 0; batch = await expireHolds(sales, now))
    expired += batch;
  let settled = 0;
  for (const id of await unsettledPayments(sales.db)) {
    try {
      if (await settlePayment(sales.db, sales.provider, id)) settled++;
    } catch (err) {
      sales.log?.warn({ err, paymentId: id }, 'money step failed; retried next round');
    }
  }
  return { expired, settled };
}

/** Runs a round (and a sweep of loose photos) now and every `everyMs`, one at a time; `stop` waits for a round under way. */
export function startTimedWork(
  sales: Sales,
  photos: LoosePhotos,
  everyMs: number,
  onError: (err: unknown) => void,
): { stop: () => Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const round = () => {
    if (stopped) return;
    running = runTimedWork(sales)
      .catch(onError)
      .then(() => photos.sweep(sales.db))
      .catch(onError);
  };
  const timer = setInterval(() => {
    void running.then(round);
  }, everyMs);
  timer.unref();
  round();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
