/**
 * The proof the books add up (issue 30): `npm run ledger:check`, the soak's reconciliation and
 * the crash test run it. Every problem found is one line; none means:
 *   - every ledger transaction sums to zero;
 *   - every sale's money has the entries of its stage and payment (held, released, captured,
 *     refunded), and every completed sale's capture is its price = the fee + the seller's share;
 *   - holds on cards = the prices of the payments held;
 *   - over all sellers, paid out + sending + available + pending + frozen (negative balances
 *     included) = captured - fees kept - refunds;
 *   - every payout has its entries by its state, for its amount, and every entry of a payout has
 *     its payout; every transfer carried by a paid payout; a sale refunded after its Stripe
 *     transfer has its reversal (after a grace for the timed work);
 *   - with a payment provider given, each payment's state is the provider's.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { PaymentProvider } from '../payments/payment-provider';
import { ACCOUNTS } from './accounts';

type Row = Record<string, unknown>;

async function rows(db: Db, query: ReturnType<typeof sql>): Promise<Row[]> {
  const result = await db.execute(query);
  return (result as unknown as { rows: Row[] }).rows;
}

const cents = (value: unknown) => Number(value ?? 0);

/** What the provider's intent status is for each of our money states once settled. */
const PROVIDER_STATUS: Record<string, string[]> = {
  held: ['requires_capture'],
  captured: ['succeeded', 'refunded'],
  released: ['canceled'],
  refunded: ['refunded'],
};

export async function checkLedger(
  db: Db,
  options: { provider?: PaymentProvider; now?: Date; reversalGraceMs?: number } = {},
): Promise<string[]> {
  const problems: string[] = [];
  const now = options.now ?? new Date();

  for (const r of await rows(
    db,
    sql`select transaction_key, sum(amount_cents) as total from ledger_entries group by transaction_key having sum(amount_cents) <> 0`,
  ))
    problems.push(`transaction ${r.transaction_key} does not balance (off by ${r.total})`);

  for (const r of await rows(
    db,
    sql`select t.key from ledger_transactions t where not exists (select 1 from ledger_entries e where e.transaction_key = t.key)
        and t.kind not in ('available', 'freeze', 'unfreeze')`,
  ))
    problems.push(`transaction ${r.key} has no entries`);

  // Each sale with a payment: the transactions its stage and money call for, and no others.
  const sales = await rows(
    db,
    sql`select o.id, o.stage, o.price_cents, o.fee_cents, p.money, p.transaction_id,
          (select array_agg(t.kind) from ledger_transactions t where t.order_id = o.id) as kinds
        from orders o join payments p on p.order_id = o.id`,
  );
  for (const sale of sales) {
    const kinds = new Set((sale.kinds as string[] | null) ?? []);
    const money = String(sale.money);
    const need = (kind: string, when: boolean) => {
      if (when && !kinds.has(kind))
        problems.push(`sale ${sale.id} (${sale.stage}, money ${money}) has no ${kind} entries`);
      if (!when && kinds.has(kind))
        problems.push(
          `sale ${sale.id} (${sale.stage}, money ${money}) has ${kind} entries it should not`,
        );
    };
    need('hold', true);
    const captured =
      ['capturing', 'captured'].includes(money) ||
      (['refunding', 'refunded'].includes(money) && kinds.has('capture'));
    need('capture', captured);
    need(
      'release',
      ['releasing', 'released'].includes(money) ||
        (['refunding', 'refunded'].includes(money) && !kinds.has('capture')),
    );
    need('refund', ['refunding', 'refunded'].includes(money) && kinds.has('capture'));
    if (['completed', 'disputed', 'refunded'].includes(String(sale.stage)) && !kinds.has('capture'))
      problems.push(`sale ${sale.id} was handed over but has no capture entries`);
    if (kinds.has('capture') && sale.fee_cents === null)
      problems.push(`sale ${sale.id} was captured without its fee fixed`);
  }

  // Each capture: price = fee + seller's share, as the order says.
  for (const r of await rows(
    db,
    sql`select t.order_id, o.price_cents, o.fee_cents,
          sum(case when e.account = ${ACCOUNTS.holds} then -e.amount_cents else 0 end) as captured,
          sum(case when e.account = ${ACCOUNTS.fees} then e.amount_cents else 0 end) as fee,
          sum(case when e.account like 'seller:%' then e.amount_cents else 0 end) as share
        from ledger_transactions t join ledger_entries e on e.transaction_key = t.key join orders o on o.id = t.order_id
        where t.kind = 'capture' group by t.order_id, o.price_cents, o.fee_cents`,
  )) {
    if (cents(r.captured) !== cents(r.price_cents))
      problems.push(`sale ${r.order_id}: captured ${r.captured}, its price is ${r.price_cents}`);
    if (cents(r.fee) !== cents(r.fee_cents))
      problems.push(`sale ${r.order_id}: fee booked ${r.fee}, its fee is ${r.fee_cents}`);
    if (cents(r.fee) + cents(r.share) !== cents(r.captured))
      problems.push(
        `sale ${r.order_id}: captured ${r.captured} is not fee ${r.fee} + share ${r.share}`,
      );
  }

  const [totals] = await rows(
    db,
    sql`select
          coalesce(sum(case when account = ${ACCOUNTS.holds} then amount_cents end), 0) as holds,
          coalesce(sum(case when account = ${ACCOUNTS.fees} then amount_cents end), 0) as fees,
          coalesce(sum(case when account = ${ACCOUNTS.sending} then amount_cents end), 0) as sending,
          coalesce(sum(case when account like 'seller:%' then amount_cents end), 0) as sellers,
          coalesce(sum(amount_cents), 0) as everything
        from ledger_entries`,
  );
  const [flows] = await rows(
    db,
    sql`select
          coalesce(sum(case when t.kind = 'capture' and e.account = ${ACCOUNTS.holds} then -e.amount_cents end), 0) as captured,
          coalesce(sum(case when t.kind = 'refund' and e.account = ${ACCOUNTS.cards} then e.amount_cents end), 0) as refunds
        from ledger_transactions t join ledger_entries e on e.transaction_key = t.key`,
  );
  const [held] = await rows(
    db,
    sql`select coalesce(sum(price_cents), 0) as held from payments where money = 'held'`,
  );
  if (cents(totals?.everything) !== 0)
    problems.push(`the accounts sum to ${totals?.everything}, not 0`);
  if (cents(totals?.holds) !== cents(held?.held))
    problems.push(`holds on cards are ${totals?.holds}; the payments held come to ${held?.held}`);
  const owed = cents(flows?.captured) - cents(totals?.fees) - cents(flows?.refunds);
  if (cents(totals?.sellers) + cents(totals?.sending) !== owed)
    problems.push(
      `sellers' money (paid out, sending, available, pending, frozen) is ${cents(totals?.sellers) + cents(totals?.sending)}; captured ${flows?.captured} - fees ${totals?.fees} - refunds ${flows?.refunds} = ${owed}`,
    );

  // Payouts and their entries, both ways.
  for (const r of await rows(
    db,
    sql`select p.id, p.status, p.amount_cents,
          (select sum(-e.amount_cents) from ledger_entries e where e.transaction_key = 'payout:' || p.id and e.account like 'seller:%') as started,
          (select count(*) from ledger_transactions t where t.key = 'payout-paid:' || p.id) as paid,
          (select count(*) from ledger_transactions t where t.key = 'payout-failed:' || p.id) as failed
        from payouts p`,
  )) {
    if (cents(r.started) !== cents(r.amount_cents))
      problems.push(`payout ${r.id} of ${r.amount_cents} has payout entries of ${r.started ?? 0}`);
    const settled = { paid: cents(r.paid), failed: cents(r.failed) };
    const expected = { sending: [0, 0], paid: [1, 0], failed: [0, 1] }[String(r.status)] ?? [0, 0];
    if (settled.paid !== expected[0] || settled.failed !== expected[1])
      problems.push(
        `payout ${r.id} is ${r.status} but has ${settled.paid} paid and ${settled.failed} failed entries`,
      );
  }
  for (const r of await rows(
    db,
    sql`select t.key from ledger_transactions t where t.payout_id is not null and not exists (select 1 from payouts p where p.id = t.payout_id)`,
  ))
    problems.push(`ledger transaction ${r.key} names a payout that does not exist`);
  for (const r of await rows(
    db,
    sql`select s.order_id, s.transfer_id, p.status from payout_sales s join payouts p on p.id = s.payout_id where s.transfer_id is not null and p.status <> 'paid'`,
  ))
    problems.push(
      `transfer ${r.transfer_id} for sale ${r.order_id} belongs to a payout that is ${r.status}`,
    );
  const grace = new Date(now.getTime() - (options.reversalGraceMs ?? 10 * 60_000));
  for (const r of await rows(
    db,
    sql`select s.order_id, s.transfer_id from payout_sales s join payouts p on p.id = s.payout_id
        join ledger_transactions t on t.order_id = s.order_id and t.kind = 'refund'
        where p.status = 'paid' and s.transfer_id is not null and t.created_at < ${grace}
          and not exists (select 1 from ledger_transactions r where r.key = 'reversal:' || s.order_id)`,
  ))
    problems.push(
      `sale ${r.order_id} was refunded after its transfer ${r.transfer_id} and has no reversal`,
    );

  // The test bank's own records of what it paid, against our payouts, both ways.
  for (const r of await rows(
    db,
    sql`select b.key, b.amount_cents, p.id, p.status, p.amount_cents as payout_cents, p.created_at
        from test_bank_payouts b left join payouts p on 'payout:' || p.id = b.key`,
  )) {
    if (!r.id) problems.push(`the test bank paid ${r.key}, which is no payout of ours`);
    else if (cents(r.amount_cents) !== cents(r.payout_cents))
      problems.push(`payout ${r.id} is ${r.payout_cents}; the test bank paid ${r.amount_cents}`);
    else if (r.status === 'failed')
      problems.push(`payout ${r.id} failed, yet the test bank paid it`);
    else if (r.status === 'sending' && new Date(String(r.created_at)) < grace)
      problems.push(`payout ${r.id} was paid by the test bank but is still sending in our books`);
  }
  for (const r of await rows(
    db,
    sql`select p.id from payouts p where p.status = 'paid' and p.destination like 'ba\_%'
        and not exists (select 1 from test_bank_payouts b where b.key = 'payout:' || p.id)`,
  ))
    problems.push(`payout ${r.id} is paid in our books, but the test bank has no such payout`);

  if (options.provider) {
    for (const sale of sales) {
      const allowed = PROVIDER_STATUS[String(sale.money)];
      if (!allowed) continue;
      const intent = await options.provider.retrieve(String(sale.transaction_id));
      if (!intent || !allowed.includes(intent.status))
        problems.push(
          `sale ${sale.id}: our money is ${sale.money}, the provider says ${intent?.status ?? 'no such payment'}`,
        );
    }
  }
  return problems;
}
