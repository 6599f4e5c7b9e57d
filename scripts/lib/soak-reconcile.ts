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
 *
 * And the sellers' money (issue 30): the ledger check (`npm run ledger:check`, with the payment
 * provider so each payment is compared with the processor's intent), no payout left sending, every
 * funds hold due released, every completed sale's share paid out or still the seller's (pending,
 * frozen, available), each seller's money as their Payouts page showed it, and a payout account
 * change holding payouts.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../src/server/db/client';
import { checkLedger } from '../../src/server/ledger/check';
import type { PaymentProvider } from '../../src/server/payments/payment-provider';
import type { PayoutSummaryRead, SellerPayouts } from './soak-payouts';
import type { Ledger, Race, SaleRecord } from './soak-user';

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
  /** The sellers' money (issue 30), from the ledger and the payouts. */
  sellerMoney: MoneyTotals;
};

export type MoneyTotals = {
  feesCents: number;
  /** Refund transactions of handed-over sales: before any payout carried the sale, or after. */
  refundsBeforePayout: number;
  refundsAfterPayout: number;
  refundedCents: number;
  payoutsPaid: number;
  payoutsPaidCents: number;
  payoutsFailed: number;
  /** Failed payouts by the bank's reason. */
  failedReasons: Record<string, number>;
  payoutsSending: number;
  /** The sellers' money at the end, by bucket (cents); sending is the payouts on their way. */
  sellers: { pending: number; frozen: number; available: number; sending: number; paid: number };
  /** Completed sales by where their share is at the end. */
  completedShares: { paidOut: number; available: number; pending: number; frozen: number };
  /** Sellers whose available balance went below zero at some point, and at the end. */
  negativeEver: number;
  negativeAtEnd: number;
  lowestAvailableCents: number;
  /** Payout account changes that held payouts, and payouts made to the new account after it. */
  accountChanges: number;
  paidAfterHold: number;
};

const emptyMoney = (): MoneyTotals => ({
  feesCents: 0,
  refundsBeforePayout: 0,
  refundsAfterPayout: 0,
  refundedCents: 0,
  payoutsPaid: 0,
  payoutsPaidCents: 0,
  payoutsFailed: 0,
  failedReasons: {},
  payoutsSending: 0,
  sellers: { pending: 0, frozen: 0, available: 0, sending: 0, paid: 0 },
  completedShares: { paidOut: 0, available: 0, pending: 0, frozen: 0 },
  negativeEver: 0,
  negativeAtEnd: 0,
  lowestAvailableCents: 0,
  accountChanges: 0,
  paidAfterHold: 0,
});

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
  sellerMoney: emptyMoney(),
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
    provider,
    fundsDueBefore = null,
    sellerFigures,
    payoutAccounts = [],
  }: {
    runId: string;
    ledger: Ledger;
    soldBefore: Set<string>;
    /** Every hold due before this must have expired (null: expiry not checked). */
    holdsDueBefore: Date | null;
    /** The server's payment provider: the ledger check compares each payment with it. */
    provider?: PaymentProvider;
    /** Every seller's share due before this must have been released (null: not checked). */
    fundsDueBefore?: Date | null;
    /** Each soak seller's money as their Payouts page showed it at the end, by email. */
    sellerFigures?: Map<string, PayoutSummaryRead>;
    /** The soak sellers' payout accounts, some changed mid-run. */
    payoutAccounts?: SellerPayouts[];
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
  const sentMessages = ledger.messages ?? [];
  if (sentMessages.length > 0) {
    const stored = await rows<{ conversation_id: string; email: string; body: string }>(
      db,
      sql`select m.conversation_id, u.email, m.body from messages m
          join users u on u.id = m.sender_id
          where m.conversation_id = any(${arrayOf([...new Set(sentMessages.map((m) => m.conversationId))])}::uuid[])`,
    );
    const left = new Map<string, number>();
    const keyOf = (conversationId: string, email: string, body: string) =>
      `${conversationId} ${email} ${body}`;
    for (const m of stored) {
      const key = keyOf(m.conversation_id, m.email, m.body);
      left.set(key, (left.get(key) ?? 0) + 1);
    }
    check(
      'every acknowledged message is in the database, from its writer',
      sentMessages
        .filter((m) => {
          const key = keyOf(m.conversationId, m.email, m.body);
          const n = left.get(key) ?? 0;
          left.set(key, n - 1);
          return n <= 0;
        })
        .map((m) => `${m.conversationId} (${m.body})`),
      ` (${sentMessages.length} acknowledged)`,
    );
  }
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
  totals.sellerMoney = await reconcileMoney(db, check, checks, {
    provider,
    fundsDueBefore,
    sellerFigures,
    payoutAccounts,
  });
  return { checks, totals };
}

/** The sellers' money (issue 30): the ledger check, payouts, shares, and the sellers' own view. */
async function reconcileMoney(
  db: Db,
  check: (name: string, bad: string[], note?: string) => void,
  checks: Check[],
  {
    provider,
    fundsDueBefore,
    sellerFigures,
    payoutAccounts,
  }: {
    provider?: PaymentProvider;
    fundsDueBefore: Date | null;
    sellerFigures?: Map<string, PayoutSummaryRead>;
    payoutAccounts: SellerPayouts[];
  },
): Promise<MoneyTotals> {
  const money = emptyMoney();
  const problems = await checkLedger(db, { provider });
  checks.push({
    name: `the ledger check (npm run ledger:check${provider ? ", each payment against the processor's intent" : ''}) finds nothing`,
    ok: problems.length === 0,
    detail:
      problems.length === 0
        ? 'the books add up'
        : `${problems.length} problems: ${problems.slice(0, 5).join('; ')}`,
  });

  const payouts = await rows<{
    id: string;
    status: string;
    amount_cents: number;
    reason: string | null;
  }>(db, sql`select id, status, amount_cents, failure_reason as reason from payouts`);
  for (const p of payouts) {
    if (p.status === 'paid') {
      money.payoutsPaid++;
      money.payoutsPaidCents += Number(p.amount_cents);
    } else if (p.status === 'failed') {
      money.payoutsFailed++;
      const reason = p.reason ?? 'no reason';
      money.failedReasons[reason] = (money.failedReasons[reason] ?? 0) + 1;
    } else money.payoutsSending++;
  }
  check(
    'no payout is left sending after the last timed work',
    payouts.filter((p) => p.status === 'sending').map((p) => p.id),
  );
  check(
    'every failed payout says why',
    payouts.filter((p) => p.status === 'failed' && !p.reason).map((p) => p.id),
  );

  if (fundsDueBefore) {
    const due = await rows<{ id: string }>(
      db,
      sql`select id from orders where funds_due_at < ${fundsDueBefore.toISOString()}::timestamptz`,
    );
    check(
      "every seller's share past its funds hold was released by the timed work",
      due.map((r) => r.id),
    );
  }

  // Each completed sale's share: paid out by one payout of its net, or still the seller's.
  const shares = await rows<{
    id: string;
    share: number;
    pending: number;
    frozen: number;
    available: number;
    paid_out: number;
    carried: number;
  }>(
    db,
    sql`select o.id, o.price_cents - o.fee_cents as share,
          coalesce(sum(e.amount_cents) filter (where e.account like 'seller:%:pending'), 0) as pending,
          coalesce(sum(e.amount_cents) filter (where e.account like 'seller:%:frozen'), 0) as frozen,
          coalesce(sum(e.amount_cents) filter (where e.account like 'seller:%:available'), 0) as available,
          (select coalesce(sum(s.net_cents), 0) from payout_sales s join payouts p on p.id = s.payout_id
            where s.order_id = o.id and p.status = 'paid') as paid_out,
          (select count(*) from payout_sales s join payouts p on p.id = s.payout_id
            where s.order_id = o.id and p.status in ('paid', 'sending')) as carried
        from orders o left join ledger_entries e on e.order_id = o.id
        where o.stage = 'completed'
        group by o.id, o.price_cents, o.fee_cents`,
  );
  const unaccounted: string[] = [];
  for (const s of shares) {
    const share = Number(s.share);
    const [pending, frozen, available] = [s.pending, s.frozen, s.available].map(Number) as [
      number,
      number,
      number,
    ];
    if (Number(s.carried) > 1) unaccounted.push(`${s.id} (in ${s.carried} payouts)`);
    else if (Number(s.carried) === 1) {
      if (Number(s.paid_out) !== share)
        unaccounted.push(`${s.id} (share ${share}, paid out ${s.paid_out})`);
      else money.completedShares.paidOut++;
    } else if (pending + frozen + available !== share || Math.min(pending, frozen, available) < 0)
      unaccounted.push(
        `${s.id} (share ${share}: pending ${pending}, frozen ${frozen}, available ${available})`,
      );
    else if (available === share) money.completedShares.available++;
    else if (pending === share) money.completedShares.pending++;
    else money.completedShares.frozen++;
  }
  check(
    "every completed sale's share is paid out (one payout, its net) or the seller's (pending, frozen, available)",
    unaccounted,
    ` (${shares.length} completed: ${money.completedShares.paidOut} paid out, ${money.completedShares.available} available, ${money.completedShares.pending} pending, ${money.completedShares.frozen} frozen)`,
  );

  // Each seller: what their accounts hold (and their payouts sending) = their sales' shares.
  const perSeller = await rows<{
    seller: string;
    email: string | null;
    booked: number;
    shares: number;
  }>(
    db,
    sql`with booked as (
          select split_part(account, ':', 2) as seller, sum(amount_cents) as cents
          from ledger_entries where account like 'seller:%' group by 1
          union all
          select seller_id::text, sum(amount_cents) from payouts where status = 'sending' group by 1),
        shares as (
          select seller_id::text as seller, sum(price_cents - fee_cents) as cents from orders
          where stage in ('completed', 'disputed') and fee_cents is not null group by 1)
        select coalesce(b.seller, s.seller) as seller, u.email,
          coalesce(b.cents, 0) as booked, coalesce(s.cents, 0) as shares
        from (select seller, sum(cents) as cents from booked group by seller) b
        full join shares s on s.seller = b.seller
        left join users u on u.id::text = coalesce(b.seller, s.seller)`,
  );
  check(
    "every seller's money (paid out, sending, available, pending, frozen) is the shares of their sales kept (completed, disputed)",
    perSeller
      .filter((r) => Number(r.booked) !== Number(r.shares))
      .map((r) => `${r.email ?? r.seller} (booked ${r.booked}, shares ${r.shares})`),
    ` (${perSeller.length} sellers)`,
  );

  const [buckets] = await rows<Record<string, number>>(
    db,
    sql`select
          coalesce(sum(amount_cents) filter (where account like 'seller:%:pending'), 0) as pending,
          coalesce(sum(amount_cents) filter (where account like 'seller:%:frozen'), 0) as frozen,
          coalesce(sum(amount_cents) filter (where account like 'seller:%:available'), 0) as available,
          coalesce(sum(amount_cents) filter (where account like 'seller:%:paid'), 0) as paid,
          coalesce(sum(amount_cents) filter (where account = 'payouts:sending'), 0) as sending,
          coalesce(sum(amount_cents) filter (where account = 'fees'), 0) as fees
        from ledger_entries`,
  );
  money.sellers = {
    pending: Number(buckets?.pending ?? 0),
    frozen: Number(buckets?.frozen ?? 0),
    available: Number(buckets?.available ?? 0),
    sending: Number(buckets?.sending ?? 0),
    paid: Number(buckets?.paid ?? 0),
  };
  money.feesCents = Number(buckets?.fees ?? 0);

  const refunds = await rows<{ id: string; cents: number; after: boolean }>(
    db,
    sql`select t.order_id as id,
          (select coalesce(sum(e.amount_cents), 0) from ledger_entries e
            where e.transaction_key = t.key and e.account = 'cards') as cents,
          exists (select 1 from payout_sales s join payouts p on p.id = s.payout_id
            where s.order_id = t.order_id and p.status = 'paid' and p.created_at <= t.created_at) as after
        from ledger_transactions t
        where t.kind = 'refund' and exists (select 1 from ledger_transactions c
          where c.order_id = t.order_id and c.kind = 'capture')`,
  );
  for (const r of refunds) {
    if (r.after) money.refundsAfterPayout++;
    else money.refundsBeforePayout++;
    money.refundedCents += Number(r.cents);
  }

  const negatives = await rows<{ account: string; lowest: number; at_end: number }>(
    db,
    sql`select account, min(running) as lowest, sum(amount_cents) as at_end from (
          select account, amount_cents,
            sum(amount_cents) over (partition by account order by seq) as running
          from ledger_entries where account like 'seller:%:available') x
        group by account having min(running) < 0`,
  );
  money.negativeEver = negatives.length;
  money.negativeAtEnd = negatives.filter((n) => Number(n.at_end) < 0).length;
  money.lowestAvailableCents = Math.min(0, ...negatives.map((n) => Number(n.lowest)));

  // The sellers' own view against the ledger: their total is not moved by a payout in between.
  if (sellerFigures) {
    const ids = await rows<{ id: string; email: string }>(
      db,
      sql`select id::text, email from users where email = any(${`{${[...sellerFigures.keys()].join(',')}}`}::text[])`,
    );
    const bookedOf = new Map(perSeller.map((r) => [r.seller, Number(r.booked)]));
    const cents = (dollars: number) => Math.round(dollars * 100);
    check(
      "every soak seller's Payouts page (pending + frozen + available + sending + paid out) shows their money in the ledger",
      ids
        .filter((u) => {
          const s = sellerFigures.get(u.email);
          if (!s) return true;
          const shown =
            cents(s.pending) +
            cents(s.frozen) +
            cents(s.available) +
            cents(s.sending) +
            cents(s.paidOut);
          return shown !== (bookedOf.get(u.id) ?? 0);
        })
        .map((u) => u.email),
      ` (${ids.length} sellers read)`,
    );
  }

  // A change of payout account holds the seller's payouts; after the hold they go to the new one.
  const changed = payoutAccounts.filter((p) => p.heldUntil);
  money.accountChanges = changed.length;
  const heldBad: string[] = [];
  for (const seller of changed) {
    const heldUntil = new Date(seller.heldUntil as string);
    const [row] = await rows<{ during: number; after: number; elsewhere: number }>(
      db,
      sql`select
            count(*) filter (where p.created_at >= a.updated_at and p.created_at < a.payouts_held_until) as during,
            count(*) filter (where p.created_at >= a.payouts_held_until and p.destination = a.external_id) as after,
            count(*) filter (where p.created_at >= a.payouts_held_until and p.destination <> a.external_id) as elsewhere
          from users u join payout_accounts a on a.seller_id = u.id
          left join payouts p on p.seller_id = u.id
          where u.email = ${seller.account.email}
          group by a.updated_at, a.payouts_held_until, a.external_id`,
    );
    if (!row) heldBad.push(`${seller.account.email} (no account)`);
    else if (Number(row.during) > 0 || Number(row.elsewhere) > 0)
      heldBad.push(
        `${seller.account.email} (${row.during} payouts during the hold to ${heldUntil.toISOString()}, ${row.elsewhere} after it to the old account)`,
      );
    else money.paidAfterHold += Number(row.after);
  }
  check(
    'a change of payout account held payouts (none during the hold; after it, to the new account)',
    heldBad,
    ` (${changed.length} changes, ${money.paidAfterHold} payouts to the new account after the hold)`,
  );
  return money;
}

/**
 * What the run must have exercised, else it proved little: sales completed, cancelled, expired
 * (when holds expire in it), disputed and refunded; payouts paid and failed; a refund after the
 * share was paid out; a change of account holding payouts. Counted over this run's sales.
 */
export async function exercisedChecks(
  db: Db,
  {
    ledger,
    totals,
    expiries,
    disputes,
    payouts,
  }: {
    ledger: Ledger;
    totals: Totals;
    expiries: boolean;
    /** An admin decided reports (false: none could be made). */
    disputes: boolean;
    /** The soak's own server paid out on a short schedule (false: a server given by --url). */
    payouts: boolean;
  },
): Promise<Check[]> {
  const ids = ledger.sales.map((s) => s.orderId);
  const stages = countBy(
    await rows(
      db,
      sql`select stage as key, count(*)::int as n from orders
          where id = any(${arrayOf(ids)}::uuid[]) group by stage`,
    ),
  );
  const [disputed] = await rows<{ n: number }>(
    db,
    sql`select count(*)::int as n from disputes where order_id = any(${arrayOf(ids)}::uuid[])`,
  );
  const m = totals.sellerMoney;
  const wanted: [string, number, boolean][] = [
    ['sales completed', stages.completed ?? 0, true],
    ['sales cancelled', stages.cancelled ?? 0, true],
    ['sales expired', stages.expired ?? 0, expiries],
    ['sales disputed (reported)', Number(disputed?.n ?? 0), disputes],
    ['sales refunded', stages.refunded ?? 0, disputes],
    ['payouts paid', m.payoutsPaid, payouts],
    ['payouts failed', m.payoutsFailed, payouts],
    ['refunds after the payout', m.refundsAfterPayout, payouts && disputes],
    ['payout account changes that held payouts', m.accountChanges, payouts],
  ];
  const counted = wanted.filter(([, , asked]) => asked);
  const missing = counted.filter(([, n]) => n === 0).map(([name]) => name);
  return [
    {
      name: 'the run exercised every money path (each at least once)',
      ok: missing.length === 0,
      detail: `${counted.map(([name, n]) => `${name} ${n}`).join(', ')}; none: ${missing.join(', ') || 'nothing missing'}`,
    },
  ];
}

/**
 * Client-side: each race whose racers reached the record call has exactly one winner, or one more
 * for each winner's sale whose hold expired before its handover came (a slow handover, say while
 * the database was away, puts the phone on sale again, and a late racer may then win it).
 */
export function raceCheck(
  races: Race[],
  sales: readonly Pick<SaleRecord, 'productId' | 'tooLate'>[],
): Check & { contested: number; released: number; freed: number } {
  const freedOf = (r: Race) =>
    sales.filter((s) => s.productId === r.phone.productId && s.tooLate).length;
  const finished = races.filter((r) => r.winners + r.released > 0);
  const bad = finished.filter((r) => r.winners < 1 || r.winners > 1 + freedOf(r));
  const contested = finished.filter((r) => r.winners + r.released > 1).length;
  const released = finished.reduce((n, r) => n + r.released, 0);
  const freed = finished.reduce((n, r) => n + freedOf(r), 0);
  return {
    name: 'every race for one phone has exactly one winner',
    ok: bad.length === 0,
    detail: `${finished.length} races settled, ${contested} contested, ${released} losers' holds released with 409, ${freed} won again after the winner's hold expired; mismatches ${sample(bad.map((r) => `${r.phone.productId} (${r.joined} joined, ${r.winners} won, ${r.released} released, ${freedOf(r)} freed)`))}`,
    contested,
    released,
    freed,
  };
}
