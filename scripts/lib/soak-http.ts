/**
 * The soak test's HTTP client: every call is timed and classified. A 5xx, a 429, a network
 * failure or a status the caller did not expect is an error; anything else is an outcome
 * (expected business answers such as 'Already Booked' included).
 */
import type { SoakStats } from './soak-stats';

/** When the database was away: from a kill until the site served again (null: not yet). */
export type Outage = { from: number; to: number | null };

/**
 * How long after an outage closes a failure still counts as its: the requests that queued for a
 * connection meanwhile (and the people asking again) drain through a pool of ten; the report
 * says how long 503s went on after each outage closed.
 */
export const OUTAGE_SLACK_MS = 30_000;

export type Reply = { status: number; body: unknown; headers: Headers };
/** Names the outcome of an expected answer, or undefined when the answer is unexpected. */
export type Accept = (status: number, body: unknown) => string | undefined;

export type CallOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  token?: string;
  cookie?: string;
  /** Browsers send Origin; the identity routes refuse POSTs without it. */
  origin?: boolean;
  json?: unknown;
  form?: FormData;
  accept: Accept;
  /**
   * Times to try again after a 429 that asks to (Retry-After), as a person tries again in a
   * moment: the server sheds sign-ups while its password-hash queue is full. Counted as the
   * outcome `busy-retried`; the last 429 is an error.
   */
  retriesWhenBusy?: number;
  /** The wait before trying again after a 429 that names none (seconds); 0: not tried again. */
  retryAfterS?: number;
};

export const messageOf = (body: unknown): string =>
  typeof body === 'object' && body !== null && 'message' in body
    ? String((body as { message: unknown }).message)
    : '';

export const okOnly: Accept = (status) => (status === 200 ? 'ok' : undefined);

export class Http {
  /** Requests that failed because a server was killed while they were in flight. */
  lostInKills = 0;

  constructor(
    readonly base: string,
    readonly stats: SoakStats,
    private readonly timeoutMs = 30_000,
    /**
     * When servers behind the balancer were killed (ms since the epoch): a request that fails
     * with a network error or a 5xx and was in flight at one of them is counted apart, not as
     * an error (the soak with several servers kills one on purpose).
     */
    private readonly kills: readonly number[] = [],
    /**
     * When the database was away (issue 32): a 503 or a broken connection answered inside one
     * (or shortly after it closed) is asked again as a person would, after its Retry-After; a
     * 500 is an error whenever it comes.
     */
    private readonly outages: readonly Outage[] = [],
  ) {}

  /** Failures the database's outages caused, each asked again: by kind (503, network). */
  readonly unavailable = { '503': 0, network: 0, gaveUp: 0, lastAfterCloseMs: 0 };

  /** Whether a failure answered at `answeredAt` falls in an outage. */
  private inOutage(answeredAt: number): boolean {
    return this.outages.some(
      (o) =>
        o.from <= answeredAt && answeredAt <= (o.to ?? Number.POSITIVE_INFINITY) + OUTAGE_SLACK_MS,
    );
  }

  /** The outages so far, as wall-clock times, for an error's sample. */
  private outagesNow(): string {
    const iso = (ms: number) => new Date(ms).toISOString().slice(11, 23);
    return (
      this.outages.map((o) => `${iso(o.from)}-${o.to === null ? 'open' : iso(o.to)}`).join(', ') ||
      'none'
    );
  }

  /** Whether asking again has gone on past its minute (the error is already counted). */
  private gaveUp(unavailableSince: { at: number | null }): boolean {
    return unavailableSince.at !== null && Date.now() - unavailableSince.at > 60_000;
  }

  /** Counts the failure as lost in a kill when it was in flight at one; answers whether it was. */
  private lostInKill(operation: string, sentAt: number, elapsedMs: number): boolean {
    const answeredAt = sentAt + elapsedMs;
    if (!this.kills.some((k) => sentAt <= k && k <= answeredAt)) return false;
    this.lostInKills++;
    this.stats.record(operation, elapsedMs, 'in-flight-at-kill');
    return true;
  }

  async call(operation: string, path: string, options: CallOptions): Promise<Reply | null> {
    // When this call first failed for an outage: it is asked again for a minute from then.
    const unavailableSince = { at: null as number | null };
    for (let retries = options.retriesWhenBusy ?? 0; ; retries--) {
      const reply = await this.once(operation, path, options, retries > 0, unavailableSince);
      if (reply !== 'busy') return reply;
    }
  }

  /**
   * A 503 or a broken connection in an outage: waits as the answer asks (or a second) and says
   * to ask again, for up to a minute from the first try; then it is an error.
   */
  private async outageRetry(
    operation: string,
    elapsedMs: number,
    kind: '503' | 'network',
    detail: string,
    unavailableSince: { at: number | null },
    retryAfterS: number,
  ): Promise<'busy' | null> {
    if (!this.inOutage(Date.now())) return null;
    unavailableSince.at ??= Date.now();
    if (this.gaveUp(unavailableSince)) {
      this.unavailable.gaveUp++;
      this.stats.record(operation, elapsedMs, `${kind}-gave-up`);
      this.stats.error('unavailable', operation, `still ${detail} a minute after the first try`);
      return 'busy';
    }
    this.unavailable[kind]++;
    const now = Date.now();
    const closed = this.outages.filter((o) => o.from <= now).at(-1);
    if (closed?.to && now > closed.to)
      this.unavailable.lastAfterCloseMs = Math.max(
        this.unavailable.lastAfterCloseMs,
        now - closed.to,
      );
    this.stats.record(operation, elapsedMs, 'unavailable-retried');
    await new Promise((r) => setTimeout(r, Math.max(1, retryAfterS) * 1000));
    return 'busy';
  }

  private async once(
    operation: string,
    path: string,
    options: CallOptions,
    mayRetry: boolean,
    unavailableSince: { at: number | null },
  ): Promise<Reply | null | 'busy'> {
    const headers: Record<string, string> = {};
    if (options.token) headers.authorization = `bearer ${options.token}`;
    if (options.cookie) headers.cookie = options.cookie;
    if (options.origin) headers.origin = new URL(this.base).origin;
    let body: string | FormData | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.form) {
      body = options.form;
    }
    const started = performance.now();
    const sentAt = Date.now();
    let status: number;
    let text: string;
    let responseHeaders: Headers;
    try {
      const response = await fetch(new URL(path, this.base), {
        method: options.method ?? 'GET',
        headers,
        body,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      status = response.status;
      responseHeaders = response.headers;
      text = await response.text();
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause?.code;
      const detail = `${(err as Error).name}: ${(err as Error).message}${cause ? ` (${cause})` : ''}`;
      if (this.lostInKill(operation, sentAt, performance.now() - started)) return null;
      const again = await this.outageRetry(
        operation,
        performance.now() - started,
        'network',
        detail,
        unavailableSince,
        1,
      );
      if (again === 'busy') return this.gaveUp(unavailableSince) ? null : 'busy';
      this.stats.record(operation, performance.now() - started, 'network-error');
      this.stats.error('network', operation, detail);
      return null;
    }
    const elapsed = performance.now() - started;
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON: keep the text for the report.
    }
    if (status === 503) {
      const again = await this.outageRetry(
        operation,
        elapsed,
        '503',
        `503 ${text}`,
        unavailableSince,
        Number(responseHeaders.get('retry-after')) || 1,
      );
      if (again === 'busy') return this.gaveUp(unavailableSince) ? null : 'busy';
    }
    if (status >= 500) {
      if (this.lostInKill(operation, sentAt, elapsed)) return null;
      this.stats.record(operation, elapsed, String(status));
      // When, against the outages: a 5xx outside them is what a failure's reader looks for.
      const at = `answered ${new Date().toISOString()} after ${Math.round(elapsed)} ms; outages ${this.outagesNow()}`;
      this.stats.error('server-error', operation, `${status} ${text} (${at})`, status);
      return null;
    }
    const retryAfterS = Number(responseHeaders.get('retry-after')) || (options.retryAfterS ?? 0);
    if (status === 429 && mayRetry && retryAfterS > 0) {
      this.stats.record(operation, elapsed, 'busy-retried');
      await new Promise((r) => setTimeout(r, retryAfterS * 1000 * (1 + Math.random())));
      return 'busy';
    }
    if (status === 429) {
      this.stats.record(operation, elapsed, '429');
      this.stats.error('rate-limited', operation, text, status);
      return null;
    }
    const outcome = options.accept(status, parsed);
    if (!outcome) {
      this.stats.record(operation, elapsed, String(status));
      this.stats.error('unexpected', operation, `${status} ${text}`, status);
      return null;
    }
    this.stats.record(operation, elapsed, outcome);
    return { status, body: parsed, headers: responseHeaders };
  }
}

export const PASSWORD = 'Soak-Test-Phone1!';

export type Account = { email: string; name: string; token: string };

/** Signs up, saves the user record and gets an access token, the way the client does. */
export async function createAccount(
  http: Http,
  email: string,
  name: string,
  type: 'user' | 'seller',
): Promise<Account | null> {
  let signUp = await http.call('sign-up', '/api/auth/sign-up/email', {
    method: 'POST',
    origin: true,
    json: { email, name, password: PASSWORD },
    // A sign-up asked again after a lost answer (the database failing over) finds the account
    // made: the person signs in, as they would.
    accept: (s, b) =>
      s === 200
        ? 'ok'
        : s === 422 &&
            (b as { code?: string } | undefined)?.code === 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL'
          ? 'made-before'
          : undefined,
    retriesWhenBusy: 12,
  });
  if (signUp?.status === 422) {
    signUp = await http.call('sign-in', '/api/auth/sign-in/email', {
      method: 'POST',
      origin: true,
      json: { email, password: PASSWORD },
      accept: okOnly,
    });
  }
  if (!signUp) return null;
  const cookie = signUp.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const saved = await http.call('save-user', '/api/users', {
    method: 'POST',
    cookie,
    json: { email, name, type },
    accept: okOnly,
  });
  if (!saved) return null;
  const token = await http.call('token', `/api/jwt?email=${encodeURIComponent(email)}`, {
    cookie,
    accept: (status, body) =>
      status === 200 && typeof (body as { accessToken?: unknown }).accessToken === 'string'
        ? 'ok'
        : undefined,
  });
  if (!token) return null;
  return { email, name, token: (token.body as { accessToken: string }).accessToken };
}
