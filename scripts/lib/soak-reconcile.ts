/**
 * The soak test's final reconciliation, read from the database itself: orders, payments,
 * payment intents and sold phones agree, and so does the client's ledger of acknowledged
 * payments and refunds.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../src/server/db/client';
import type { Ledger, Race } from './soak-user';

export type Check = { name: string; ok: boolean; detail: string };

export type Reconciliation = {
  checks: Check[];
  totals: {
    payments: number;
    paymentsCents: number;
    paidOrders: number;
    paidOrdersCents: number;
    soldDuringSoak: number;
    refundedIntents: number;
  };
};

async function rows<T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

const sample = (ids: string[]) =>
  ids.length === 0 ? 'none' : `${ids.length}: ${ids.slice(0, 5).join(', ')}`;

export async function reconcile(
  db: Db,
  { runId, ledger, soldBefore }: { runId: string; ledger: Ledger; soldBefore: Set<string> },
): Promise<Reconciliation> {
  const checks: Check[] = [];
  const check = (name: string, bad: string[], note = '') =>
    checks.push({ name, ok: bad.length === 0, detail: `mismatches ${sample(bad)}${note}` });

  const unpaidPayments = await rows<{ id: string }>(
    db,
    sql`select p.id from payments p left join orders o on o.id = p.order_id
        where o.id is null or o.status <> 'paid'`,
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

  const paidNotSold = await rows<{ id: string }>(
    db,
    sql`select o.id from orders o left join products pr on pr.id = o.product_id
        where o.status = 'paid' and (pr.id is null or pr.status <> 'sold')`,
  );
  check(
    "every paid order's phone is sold",
    paidNotSold.map((r) => r.id),
  );

  const sold = await rows<{ id: string; n: number }>(
    db,
    sql`select pr.id, count(o.id)::int as n from products pr
        left join orders o on o.product_id = pr.id and o.status = 'paid'
        where pr.status = 'sold' group by pr.id`,
  );
  const soldDuringSoak = sold.filter((r) => !soldBefore.has(r.id));
  check(
    'every phone sold during the soak has exactly one paid order',
    soldDuringSoak.filter((r) => r.n !== 1).map((r) => `${r.id} (${r.n})`),
    ` (${soldBefore.size} sold before it, e.g. demo data, left out)`,
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
  }>(
    db,
    sql`select (select count(*)::int from payments) as payments,
               (select coalesce(sum(price_cents), 0)::bigint from payments) as payments_cents,
               (select count(*)::int from orders where status = 'paid') as paid_orders,
               (select coalesce(sum(price_cents), 0)::bigint from orders where status = 'paid')
                 as paid_orders_cents`,
  );
  const totals = {
    payments: Number(sums?.payments ?? 0),
    paymentsCents: Number(sums?.payments_cents ?? 0),
    paidOrders: Number(sums?.paid_orders ?? 0),
    paidOrdersCents: Number(sums?.paid_orders_cents ?? 0),
    soldDuringSoak: soldDuringSoak.length,
    refundedIntents: 0,
  };
  checks.push({
    name: "sum of payments equals sum of paid orders' prices",
    ok: totals.paymentsCents === totals.paidOrdersCents,
    detail: `payments ${totals.paymentsCents} cents, paid orders ${totals.paidOrdersCents} cents`,
  });

  // The card processor's side: money taken is either recorded as a payment or refunded.
  const intents = await rows<{ id: string; status: string; paid: boolean }>(
    db,
    sql`select i.id, i.status, (p.id is not null) as paid from payment_intents i
        left join payments p on p.transaction_id = i.id where i.status <> 'requires_payment_method'`,
  );
  totals.refundedIntents = intents.filter((i) => i.status === 'refunded').length;
  check(
    'every succeeded intent is recorded as a payment',
    intents.filter((i) => i.status === 'succeeded' && !i.paid).map((i) => i.id),
  );
  check(
    'no refunded intent is recorded as a payment',
    intents.filter((i) => i.status === 'refunded' && i.paid).map((i) => i.id),
  );
  const foreign = await rows<{ id: string }>(
    db,
    sql`select p.id from payments p left join payment_intents i on i.id = p.transaction_id
        where i.id is null or i.status <> 'succeeded' or i.amount_cents <> p.price_cents`,
  );
  check(
    'every payment is a succeeded intent for its amount',
    foreign.map((r) => r.id),
  );

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
  const refunded = await rows<{ id: string; status: string; paid: boolean }>(
    db,
    sql`select i.id, i.status, (p.id is not null) as paid from payment_intents i
        left join payments p on p.transaction_id = i.id
        where i.id in (select unnest(${`{${ledger.refunded.map((r) => r.transactionId).join(',')}}`}::text[]))`,
  );
  const refundedOk = new Set(
    refunded.filter((r) => r.status === 'refunded' && !r.paid).map((r) => r.id),
  );
  check(
    'every payment the buyer was told is refunded is refunded and unrecorded',
    ledger.refunded.filter((r) => !refundedOk.has(r.transactionId)).map((r) => r.transactionId),
  );
  return { checks, totals };
}

/** Client-side: each race whose racers reached the record call has exactly one winner. */
export function raceCheck(races: Race[]): Check & { contested: number; refunded: number } {
  const finished = races.filter((r) => r.winners + r.refunded > 0);
  const bad = finished.filter((r) => r.winners !== 1);
  const contested = finished.filter((r) => r.winners + r.refunded > 1).length;
  const refunded = finished.reduce((n, r) => n + r.refunded, 0);
  return {
    name: 'every race for one phone has exactly one winner',
    ok: bad.length === 0,
    detail: `${finished.length} races settled, ${contested} contested, ${refunded} losers refunded with 409; mismatches ${sample(bad.map((r) => r.phone.productId))}`,
    contested,
    refunded,
  };
}
