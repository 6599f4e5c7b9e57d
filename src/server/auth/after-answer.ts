/**
 * Work a request starts that its answer does not wait for: a password reset's look-up, token and
 * mail, so that an address with an account and one without are answered alike and at once
 * (decision 036). The work is kept until it is done, so a closing server waits for it and a
 * failure is logged, never lost; the work of one key (an address) runs in order, so its hourly
 * share of mail is counted one request at a time.
 */
import { levelOfFailure } from '../db/unavailable';

type Log = {
  warn: (details: object, message: string) => void;
  error: (details: object, message: string) => void;
};

/** Work waiting at once beyond which a caller answers "busy" rather than queue without end. */
const MAX_WAITING = 256;

export class AfterAnswer {
  private readonly chains = new Map<string, Promise<void>>();
  private waiting = 0;

  constructor(
    public log: Log,
    private readonly maxWaiting = MAX_WAITING,
  ) {}

  /** Whether as much work waits as may: the caller answers "busy" instead of adding more. */
  get full(): boolean {
    return this.waiting >= this.maxWaiting;
  }

  /** Runs `work` after the key's earlier work; `what` names it in the log if it fails. */
  run(key: string, what: string, work: () => Promise<void>): void {
    this.waiting += 1;
    const done: Promise<void> = (this.chains.get(key) ?? Promise.resolve())
      .then(work)
      .catch((err: unknown) =>
        this.log[levelOfFailure(err)]({ err }, `${what} failed after its answer`),
      )
      .finally(() => {
        this.waiting -= 1;
        if (this.chains.get(key) === done) this.chains.delete(key);
      });
    this.chains.set(key, done);
  }

  /** Waits until no work is left (on close, and in tests). */
  async idle(): Promise<void> {
    while (this.chains.size > 0) await Promise.all(this.chains.values());
  }
}
