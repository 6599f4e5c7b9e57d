/**
 * Prometheus metrics at GET /api/metrics (issue 21), for the operator's scraper only: served when
 * METRICS_TOKEN is set, to `Authorization: Bearer <token>`; without a token the route does not
 * exist (a 404 like any unknown URL) and nothing is counted.
 *
 * Each app has registries of its own (tests build many apps in one process), holding:
 * - the process's own metrics (CPU, memory, event loop, garbage collection);
 * - every answer by method, route and status, and its latency by method and route. The route is
 *   the template a request matched (`/api/products/:id`), so whatever URLs clients send, the
 *   labels stay as many as the routes: a URL no route has is `unmatched` (or `page` when the
 *   client's pages answered it). A live stream is not an answer here (it is handed over, not
 *   answered); the gauge below counts those;
 * - payments by outcome and the money steps done, counted by the payment code once committed;
 * - the live streams this server holds;
 * - the routed reads by where they ran, the primary or the read replica (decision 048);
 * - backlogs, read from the database at each scrape: mail waiting and mail given up, holds past
 *   their deadline, photos due for the sweep, money steps not yet done. These are the database's
 *   figures, so every server reports the same ones: an operator takes their `max`, not their
 *   `sum`.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { API_BASE } from '../../shared/api';
import { type Db, rowsOf } from '../db/client';
import { loosePhotos, orders, outboxMails, payments } from '../db/schema';
import { levelOfFailure } from '../db/unavailable';

/**
 * What became of an attempt to pay: `paid` (recorded, the money held), `declined` (a card the
 * embedded processor refused; Stripe's refusals stay between the browser and Stripe), `refused`
 * (the provider does not vouch for it as payment of the order), `sold_meanwhile` (another
 * buyer's payment came first: the hold is released).
 */
export type PaymentOutcome = 'paid' | 'declined' | 'refused' | 'sold_meanwhile';
const PAYMENT_OUTCOMES: readonly PaymentOutcome[] = [
  'paid',
  'declined',
  'refused',
  'sold_meanwhile',
];

/** Where the money of a recorded payment went, once the provider did the step. */
export type MoneyStepDone = 'captured' | 'released' | 'refunded';
const MONEY_STEPS: readonly MoneyStepDone[] = ['captured', 'released', 'refunded'];

/** What the payment code counts, after the transaction that decided it commits. */
export type PaymentMetrics = {
  payment: (outcome: PaymentOutcome) => void;
  moneyStep: (done: MoneyStepDone) => void;
};

declare module 'fastify' {
  interface FastifyInstance {
    /** The payment counters, or null when metrics are off (no METRICS_TOKEN). */
    paymentMetrics: PaymentMetrics | null;
  }
}

const METRICS_PATH = `${API_BASE}/metrics`;

/** A URL no route has, answered 404: one label for all of them. */
const UNMATCHED = 'unmatched';
/** A URL no route has, answered by the client's pages (rendered by the server, or the shell). */
const PAGE = 'page';

/**
 * From a cached read (a few ms) to a slow server-rendered page or a card provider's call; past
 * 10 s a request is broken, whatever its exact time.
 */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/**
 * Whether the Authorization header carries the token. Both sides are hashed first, so the
 * comparison takes the same time whatever was sent, its length included.
 */
function bearsToken(header: string | undefined, token: Buffer): boolean {
  const given = /^bearer +(\S+) *$/i.exec(header ?? '')?.[1];
  return given !== undefined && timingSafeEqual(sha256(given), token);
}

/** The route label: the matched route's template, never the URL itself. */
function routeOf(request: FastifyRequest, reply: FastifyReply): string {
  const template = request.routeOptions.url;
  if (template !== undefined) return template;
  return reply.statusCode === 404 ? UNMATCHED : PAGE;
}

type Backlogs = {
  mailWaiting: number;
  mailGivenUp: number;
  holdsOverdue: number;
  loosePhotosDue: number;
  moneyStepsPending: number;
};

/**
 * The backlogs in one round trip. Each count has the predicate of a partial index
 * (outbox_mails_due_idx, outbox_mails_given_up_idx, orders_hold_idx, loose_photos_due_idx,
 * payments_unsettled_idx), so it reads only the backlog, however large the tables.
 */
async function readBacklogs(db: Db): Promise<Backlogs> {
  const [row] = await rowsOf<Backlogs>(
    db,
    sql`select
      (select count(*)::int from ${outboxMails}
        where ${outboxMails.sentAt} is null and ${outboxMails.gaveUpAt} is null) as "mailWaiting",
      (select count(*)::int from ${outboxMails}
        where ${outboxMails.gaveUpAt} is not null) as "mailGivenUp",
      (select count(*)::int from ${orders}
        where ${orders.stage} = 'paid' and ${orders.holdExpiresAt} < now()) as "holdsOverdue",
      (select count(*)::int from ${loosePhotos}
        where ${loosePhotos.sweptAt} is null and ${loosePhotos.checkAfter} <= now())
        as "loosePhotosDue",
      (select count(*)::int from ${payments}
        where ${payments.money} in ('capturing', 'releasing', 'refunding')) as "moneyStepsPending"`,
  );
  if (!row) throw new Error('the backlog query answered no row');
  return row;
}

export default fp(async function metrics(app: FastifyInstance, opts: { token?: string }) {
  if (opts.token === undefined) {
    app.decorate('paymentMetrics', null);
    return;
  }
  const token = sha256(opts.token);
  const registry = new Registry();
  // The database's figures, apart: when the database does not answer, the rest is still served.
  const backlogRegistry = new Registry();
  collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: 'http_requests_total',
    help: 'Answers by method, route template and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from a request to its answer, by method and route template',
    labelNames: ['method', 'route'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  // Method labels are bounded too: Node's parser refuses a method it does not know (400).
  app.addHook('onResponse', async (request, reply) => {
    const route = routeOf(request, reply);
    requests.inc({ method: request.method, route, status: reply.statusCode });
    latency.observe({ method: request.method, route }, reply.elapsedTime / 1000);
  });

  const paymentsByOutcome = new Counter({
    name: 'phone_market_payments_total',
    help: 'Attempts to pay for an order, by outcome (paid, declined, refused, sold_meanwhile)',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const moneySteps = new Counter({
    name: 'phone_market_money_steps_total',
    help: 'Money steps the card provider did for recorded payments (captured, released, refunded)',
    labelNames: ['step'],
    registers: [registry],
  });
  // Every outcome from 0, so a rate is there before the first of each.
  for (const outcome of PAYMENT_OUTCOMES) paymentsByOutcome.inc({ outcome }, 0);
  for (const step of MONEY_STEPS) moneySteps.inc({ step }, 0);
  app.decorate('paymentMetrics', {
    payment: (outcome) => paymentsByOutcome.inc({ outcome }),
    moneyStep: (step) => moneySteps.inc({ step }),
  } satisfies PaymentMetrics);

  new Gauge({
    name: 'phone_market_live_streams',
    help: 'Live-update streams (server-sent events) this server holds open',
    registers: [registry],
    collect() {
      this.set(app.live.open);
    },
  });

  const searchesSeen = { server: 0, database: 0 };
  new Counter({
    name: 'phone_market_search_counted_total',
    help: 'Searches counted by the counts kept in this server (by="server") or by the database',
    labelNames: ['by'],
    registers: [registry],
    collect() {
      const now = app.searchCounts?.searches ?? { server: 0, database: 0 };
      for (const by of ['server', 'database'] as const) {
        this.inc({ by }, now[by] - searchesSeen[by]);
        searchesSeen[by] = now[by];
      }
    },
  });
  new Gauge({
    name: 'phone_market_search_counts_phones',
    help: 'Phones the search counts kept in this server hold (0 while reading them, or off)',
    registers: [registry],
    collect() {
      this.set(app.searchCounts?.ready ? app.searchCounts.phones : 0);
    },
  });

  const readsSeen = { primary: 0, replica: 0 };
  new Counter({
    name: 'phone_market_database_reads_total',
    help: 'Routed reads (catalog, search, phone pages, own lists) by where they ran: pool="primary" or "replica"',
    labelNames: ['pool'],
    registers: [registry],
    collect() {
      for (const pool of ['primary', 'replica'] as const) {
        this.inc({ pool }, app.reads.reads[pool] - readsSeen[pool]);
        readsSeen[pool] = app.reads.reads[pool];
      }
    },
  });

  const backlog = (name: string, help: string) =>
    new Gauge({ name: `phone_market_${name}`, help, registers: [backlogRegistry] });
  const gauges: Record<keyof Backlogs, Gauge> = {
    mailWaiting: backlog('outbox_mails_waiting', 'Mail not yet sent, due now or to be retried'),
    mailGivenUp: backlog(
      'outbox_mails_given_up',
      'Mail given up after three days of failed tries (kept a month)',
    ),
    holdsOverdue: backlog(
      'holds_overdue',
      'Paid sales past their handover deadline whose hold the timed work has not yet released',
    ),
    loosePhotosDue: backlog('loose_photos_due', 'Photos on no phone that the sweep may remove now'),
    moneyStepsPending: backlog(
      'money_steps_pending',
      'Payments whose money step (capture, release, refund) is decided but not yet done',
    ),
  };

  app.get(METRICS_PATH, { schema: { hide: true } }, async (request, reply) => {
    if (!bearsToken(request.headers.authorization, token)) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .send({ message: 'Metrics need the metrics token: Authorization: Bearer <METRICS_TOKEN>' });
    }
    const answer = [await registry.metrics()];
    try {
      const backlogs = await readBacklogs(app.db);
      for (const [key, gauge] of Object.entries(gauges)) gauge.set(backlogs[key as keyof Backlogs]);
      answer.push(await backlogRegistry.metrics());
    } catch (err) {
      request.log[levelOfFailure(err)](
        { err },
        'metrics: the backlogs could not be read; served without them',
      );
    }
    return reply
      .header('cache-control', 'no-store')
      .type(registry.contentType)
      .send(answer.join(''));
  });
});
