/**
 * The soak test's final reconciliation, read from the database itself: orders, payments, their
 * money, payment intents and sold phones agree, and so does the client's ledger of acknowledged
 * payments, released holds and the sales it handed over, cancelled, left to expire or disputed.
 *
 * Where the money must be for each stage of a sale (src/shared/order-process.ts):
 *
 *   stage                 payment money        processor intent
 *   paid                  held                 requires_capture
 *   completed, disputed   captured             succeeded
 *   cancelled, expired    released (refunded)  canceled (refunded)
 *   refunded              refunded             refunded
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../src/server/db/client';
import type { Ledger, Race } from './soak-user';

export type Check = { name: string; ok: boolean; detail: string };

export type Totals = {
  payments: number;
  paymentsCents: number;
  paidOrders: number;
  paidOrdersCents: number;
  soldDuringSoak: number;
  /** Sales by stage (every order with a payment). */
  stages: Record<string, number>;
  /** Payments by where their money is. */
  money: Record<string, number>;
  capturedCents: number;
  /** The processor's intents by status (those a card was given for). */
  intents: Record<string, number>;
  succeededIntentsCents: number;
};

export type Reconciliation = { checks: Check[]; totals: Totals };

export const emptyTotals = (): Totals => ({
  payments: 0,
  paymentsCents: 0,
  paidOrders: 0,
  paidOrdersCents: 0,
  soldDuringSoak: 0,
  stages: {},
  money: {},
  capturedCents: 0,
  intents: {},
  succeededIntentsCents: 0,
});

/** The money a payment of a sale in each stage may be in, once every step is done. */
const MONEY_OF_STAGE: Record<string, string[]> = {
  paid: ['held'],
  completed: ['captured'],
  disputed: ['captured'],
  // A payment captured at once (before holds) is refunded, not released, by a cancel.
  cancelled: ['released', 'refunded'],
  expired: ['released', 'refunded'],
  refunded: ['refunded'],
};
/** The processor's status of an intent whose payment's money is in each final state. */
const INTENT_OF_MONEY: Record<string, string> = {
  held: 'requires_capture',
  captured: 'succeeded',
  released: 'canceled',
  refunded: 'refunded',
};
/** The stages in which a sale has (or had, refunded) the phone: at most one per phone. */
const HAS_PHONE = `('paid', 'completed', 'disputed', 'refunded')`;

async function rows<T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

const sample = (ids: string[]) =>
  ids.length === 0 ? 'none' : `${ids.length}: ${ids.slice(0, 5).join(', ')}`;

/** A PostgreSQL array literal of ids (uuids or intent ids: no commas, quotes or braces). */
const arrayOf = (ids: string[]) => `{${ids.join(',')}}`;

const countBy = (list: { key: string; n: number }[]) =>
  Object.fromEntries(list.map((r) => [r.key, Number(r.n)]));

export async function reconcile(
  db: Db,
  {
    runId,
    ledger,
    soldBefore,
    holdsDueBefore,
  }: {
    runId: string;
    ledger: Ledger;
    soldBefore: Set<string>;
    /** Every hold due before this must have expired (null: expiry not checked). */
    holdsDueBefore: Date | null;
  },
): Promise<Reconciliation> {
  const checks: Check[] = [];
  const check = (name: string, bad: string[], note = '') =>
    checks.push({ name, ok: bad.length === 0, detail: `mismatches ${sample(bad)}${note}` });

  // Orders, payments and phones.
  const unpaidPayments = await rows<{ id: string }>(
    db,
    sql`select p.id from payments p left join orders o on o.id = p.order_id
        where o.id is null or o.status <> 'paid' or o.stage = 'booked'`,
  );
  check(
    'every payment has a paid order',
    unpaidPayments.map((r) => r.id),
  );

  const paidWithoutOne = await rows<{ id: string; n: number }>(
    db,
    sql`select o.id, count(p.id)::int as n from orders o left join payments p on p.order_id = o.id
        where o.status = 'paid' group by o.id having count(p.id) <> 1`,
  );
  check(
    'every paid order has exactly one payment',
    paidWithoutOne.map((r) => `${r.id} (${r.n})`),
  );

  const notSold = await rows<{ id: string; stage: string }>(
    db,
    sql`select o.id, o.stage from orders o left join products pr on pr.id = o.product_id
        where o.stage in ${sql.raw(HAS_PHONE)} and (pr.id is null or pr.status <> 'sold')`,
  );
  check(
    'the phone of every paid, completed, disputed or refunded sale is sold',
    notSold.map((r) => `${r.id} (${r.stage})`),
  );

  const phones = await rows<{ id: string; status: string; n: number }>(
    db,
    sql`select pr.id, pr.status, count(o.id)::int as n from products pr
        left join orders o on o.product_id = pr.id and o.stage in ${sql.raw(HAS_PHONE)}
        group by pr.id, pr.status`,
  );
  check(
    'no phone was sold twice (at most one paid, completed, disputed or refunded sale a phone)',
    phones.filter((r) => r.n > 1).map((r) => `${r.id} (${r.n})`),
  );
  const soldDuringSoak = phones.filter((r) => r.status === 'sold' && !soldBefore.has(r.id));
  check(
    'every phone sold during the soak has exactly one sale that has it',
    soldDuringSoak.filter((r) => r.n !== 1).map((r) => `${r.id} (${r.n})`),
    ` (${soldBefore.size} sold before it, e.g. demo data, left out)`,
  );
  check(
    'every phone for sale again (cancelled or expired sales) has no sale that has it',
    phones.filter((r) => r.status === 'available' && r.n > 0).map((r) => r.id),
  );

  const amounts = await rows<{ id: string }>(
    db,
    sql`select p.id from payments p join orders o on o.id = p.order_id
        where p.price_cents <> o.price_cents or p.product_id <> o.product_id or p.email <> o.email`,
  );
  check(
    "every payment's amount, phone and buyer are its order's",
    amounts.map((r) => r.id),
  );

  const [sums] = await rows<{
    payments: number;
    payments_cents: number;
    paid_orders: number;
    paid_orders_cents: number;
    captured_cents: number;
    succeeded_cents: number;
  }>(
    db,
    sql`select (select count(*)::int from payments) as payments,
               (select coalesce(sum(price_cents), 0)::bigint from payments) as payments_cents,
               (select count(*)::int from orders where status = 'paid') as paid_orders,
               (select coalesce(sum(price_cents), 0)::bigint from orders where status = 'paid')
                 as paid_orders_cents,
               (select coalesce(sum(price_cents), 0)::bigint from payments
                 where money = 'captured') as captured_cents,
               (select coalesce(sum(amount_cents), 0)::bigint from payment_intents
                 where status = 'succeeded') as succeeded_cents`,
  );
  const totals: Totals = {
    ...emptyTotals(),
    payments: Number(sums?.payments ?? 0),
    paymentsCents: Number(sums?.payments_cents ?? 0),
    paidOrders: Number(sums?.paid_orders ?? 0),
    paidOrdersCents: Number(sums?.paid_orders_cents ?? 0),
    soldDuringSoak: soldDuringSoak.length,
    capturedCents: Number(sums?.captured_cents ?? 0),
    succeededIntentsCents: Number(sums?.succeeded_cents ?? 0),
  };
  totals.stages = countBy(
    await rows(
      db,
      sql`select stage as key, count(*)::int as n from orders where status = 'paid' group by stage`,
    ),
  );
  totals.money = countBy(
    await rows(db, sql`select money as key, count(*)::int as n from payments group by money`),
  );
  totals.intents = countBy(
    await rows(
      db,
      sql`select status as key, count(*)::int as n from payment_intents
          where status <> 'requires_payment_method' group by status`,
    ),
  );
  checks.push({
    name: "sum of payments equals sum of paid orders' prices",
    ok: totals.paymentsCents === totals.paidOrdersCents,
    detail: `payments ${totals.paymentsCents} cents, paid orders ${totals.paidOrdersCents} cents`,
  });

  // Where the money is.
  const money = await rows<{
    id: string;
    stage: string;
    money: string;
    intent: string | null;
    intent_cents: number | null;
    price_cents: number;
  }>(
    db,
    sql`select p.id, o.stage, p.money, i.status as intent, i.amount_cents as intent_cents,
               p.price_cents
        from payments p join orders o on o.id = p.order_id
        left join payment_intents i on i.id = p.transaction_id`,
  );
  check(
    'no money step is left unfinished (capturing, releasing, refunding) after the last timed work',
    money.filter((p) => p.money.endsWith('ing')).map((p) => `${p.id} (${p.money})`),
  );
  check(
    'every captured amount belongs to a completed or disputed sale',
    money
      .filter((p) => p.money === 'captured' && p.stage !== 'completed' && p.stage !== 'disputed')
      .map((p) => `${p.id} (${p.stage})`),
  );
  check(
    "every payment's money is where its sale's stage puts it (held, captured, released, refunded)",
    money
      .filter((p) => !MONEY_OF_STAGE[p.stage]?.includes(p.money))
      .map((p) => `${p.id} (${p.stage}, ${p.money})`),
  );
  check(
    "every payment's money matches the processor's intent, for its amount",
    money
      .filter(
        (p) =>
          p.intent === null ||
          (!p.money.endsWith('ing') && INTENT_OF_MONEY[p.money] !== p.intent) ||
          Number(p.intent_cents) !== Number(p.price_cents),
      )
      .map((p) => `${p.id} (${p.money}, intent ${p.intent ?? 'missing'})`),
  );
  checks.push({
    name: "the captured amounts add up to the processor's succeeded intents",
    ok: totals.capturedCents === totals.succeededIntentsCents,
    detail: `captured ${totals.capturedCents} cents in ${totals.money.captured ?? 0} payments, succeeded intents ${totals.succeededIntentsCents} cents in ${totals.intents.succeeded ?? 0}`,
  });

  // The processor's side: no card is left held or charged without a payment of ours.
  const intents = await rows<{ id: string; status: string; paid: boolean }>(
    db,
    sql`select i.id, i.status, (p.id is not null) as paid from payment_intents i
        left join payments p on p.transaction_id = i.id where i.status <> 'requires_payment_method'`,
  );
  check(
    'every intent that holds or took money (requires_capture, succeeded) is a payment',
    intents
      .filter((i) => (i.status === 'requires_capture' || i.status === 'succeeded') && !i.paid)
      .map((i) => `${i.id} (${i.status})`),
  );

  const disputes = await rows<{
    id: string;
    resolution: string | null;
    stage: string;
    money: string;
    intent: string;
  }>(
    db,
    sql`select d.order_id as id, d.resolution, o.stage, p.money, i.status as intent
        from disputes d join orders o on o.id = d.order_id
        join payments p on p.order_id = o.id
        left join payment_intents i on i.id = p.transaction_id`,
  );
  const expectedOfDispute: Record<string, [string, string, string]> = {
    refunded: ['refunded', 'refunded', 'refunded'],
    closed: ['completed', 'captured', 'succeeded'],
    open: ['disputed', 'captured', 'succeeded'],
  };
  check(
    "every refunded dispute's payment and intent are refunded; a closed one's stay captured",
    disputes
      .filter((d) => {
        const [stage, money, intent] = expectedOfDispute[d.resolution ?? 'open'] ?? [];
        return d.stage !== stage || d.money !== money || d.intent !== intent;
      })
      .map((d) => `${d.id} (${d.resolution ?? 'open'}: ${d.stage}, ${d.money}, ${d.intent})`),
  );

  if (holdsDueBefore) {
    const overdue = await rows<{ id: string }>(
      db,
      sql`select id from orders where stage = 'paid' and hold_expires_at < ${holdsDueBefore.toISOString()}::timestamptz`,
    );
    check(
      'every hold past its deadline was released by the timed work (no paid sale overdue)',
      overdue.map((r) => r.id),
    );
  }

  // The client's ledger against the database, for this run's buyers.
  const ours = await rows<{
    id: string;
    transaction_id: string;
    order_id: string;
    email: string;
    price_cents: number;
  }>(
    db,
    sql`select id, transaction_id, order_id, email, price_cents from payments
        where email like ${`soak-${runId}-%`}`,
  );
  const byId = new Map(ours.map((p) => [p.id, p]));
  const acknowledged = new Set(ledger.acknowledged.map((a) => a.insertedId));
  check(
    'every acknowledged payment is in the database as acknowledged',
    ledger.acknowledged
      .filter((a) => {
        const p = byId.get(a.insertedId);
        return (
          !p ||
          p.transaction_id !== a.transactionId ||
          p.order_id !== a.orderId ||
          p.email !== a.email ||
          Number(p.price_cents) !== a.priceCents
        );
      })
      .map((a) => a.insertedId),
  );
  check(
    "every payment of this run's buyers was acknowledged to them",
    ours.filter((p) => !acknowledged.has(p.id)).map((p) => p.id),
  );
  const released = await rows<{ id: string; status: string; paid: boolean }>(
    db,
    sql`select i.id, i.status, (p.id is not null) as paid from payment_intents i
        left join payments p on p.transaction_id = i.id
        where i.id = any(${arrayOf(ledger.released.map((r) => r.transactionId))}::text[])`,
  );
  const releasedOk = new Set(
    released.filter((r) => r.status === 'canceled' && !r.paid).map((r) => r.id),
  );
  check(
    'every buyer told the hold was released (sold meanwhile) has a cancelled, unrecorded intent',
    ledger.released.filter((r) => !releasedOk.has(r.transactionId)).map((r) => r.transactionId),
  );

  // Each sale the soak took on, where the server's answers put it.
  const sales = await rows<{ id: string; stage: string; cancelled_by: string | null }>(
    db,
    sql`select id, stage, cancelled_by from orders
        where id = any(${arrayOf(ledger.sales.map((s) => s.orderId))}::uuid[])`,
  );
  const saleById = new Map(sales.map((s) => [s.id, s]));
  check(
    'every sale is in the stage the answers put it in (handed over, cancelled, expired, refunded)',
    ledger.sales
      .filter((s) => {
        const row = saleById.get(s.orderId);
        if (!row || s.stage === null || row.stage !== s.stage) return true;
        if (s.fate === 'buyer-cancel' && !s.tooLate) return row.cancelled_by !== 'buyer';
        if (s.fate === 'seller-cancel' && !s.tooLate) return row.cancelled_by !== 'seller';
        return (s.fate === 'expire' || s.tooLate) && row.stage !== 'expired';
      })
      .map(
        (s) =>
          `${s.orderId} (${s.fate}: expected ${s.stage}, is ${saleById.get(s.orderId)?.stage})`,
      ),
  );
  return { checks, totals };
}

/** Client-side: each race whose racers reached the record call has exactly one winner. */
export function raceCheck(races: Race[]): Check & { contested: number; released: number } {
  const finished = races.filter((r) => r.winners + r.released > 0);
  const bad = finished.filter((r) => r.winners !== 1);
  const contested = finished.filter((r) => r.winners + r.released > 1).length;
  const released = finished.reduce((n, r) => n + r.released, 0);
  return {
    name: 'every race for one phone has exactly one winner',
    ok: bad.length === 0,
    detail: `${finished.length} races settled, ${contested} contested, ${released} losers' holds released with 409; mismatches ${sample(bad.map((r) => r.phone.productId))}`,
    contested,
    released,
  };
}
