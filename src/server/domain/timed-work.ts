/**
 * The timed work of the order process: holds past their deadline are released, and money steps a
 * crash or a provider outage left unfinished are asked again; app.ts runs it in one round with
 * the other due work (photos on no phone, mail to send). Each round is a sweep of what is
 * due, so it catches up after downtime by itself, and each sale changes once whichever server's
 * round reaches it first (rows are locked and their stage checked; see decision 022).
 */
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
      if (await settlePayment(sales.db, sales.provider, id, sales.metrics)) settled++;
    } catch (err) {
      sales.log?.warn({ err, paymentId: id }, 'money step failed; retried next round');
    }
  }
  return { expired, settled };
}

/**
 * Runs the jobs of a round now and every `everyMs`, one round at a time, each job's failure
 * reported on its own; `stop` waits for a round under way.
 */
export function startTimedWork(
  jobs: ReadonlyArray<() => Promise<unknown>>,
  everyMs: number,
  onError: (err: unknown) => void,
): { stop: () => Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const round = () => {
    if (stopped) return;
    running = jobs.reduce<Promise<unknown>>(
      (previous, job) => previous.then(() => job().catch(onError)),
      Promise.resolve(),
    );
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
