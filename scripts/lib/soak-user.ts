/**
 * One simulated buyer: signs up, then until time is up browses, wish-lists, books and pays for
 * some bookings, with a person's think time between steps. Now and then several buyers race
 * for one phone: they book it and open payment intents, then all confirm their cards at once,
 * so one wins and the others' holds are released (409).
 *
 * Every payment the buyer is told about then goes on as a sale: handed over (the buyer reads the
 * code, the seller enters it, now and then after a wrong one), cancelled by the buyer or by the
 * seller, left to expire, or handed over and then reported, for the admin to refund or close;
 * some reports come late, after the seller's funds hold ended and the share was paid out, so the
 * refund leaves the seller a negative balance their next sales make good (issue 30).
 */

import type { OrderStage } from '../../src/shared/order-process';
import { nextLink } from '../../src/shared/pagination';
import type { Listed } from './soak-catalog';
import {
  type Accept,
  type Account,
  createAccount,
  type Http,
  messageOf,
  type Reply,
} from './soak-http';

export const TEST_CARD = '4242424242424242';

export type AcknowledgedPayment = {
  insertedId: string;
  transactionId: string;
  orderId: string;
  email: string;
  priceCents: number;
};
/** A buyer told the phone was sold to another a moment earlier and the hold released. */
export type ReleasedPayment = { transactionId: string; orderId: string; email: string };

/** What the soak does with a sale once it is paid. */
export type SaleFate =
  | 'handover'
  | 'buyer-cancel'
  | 'seller-cancel'
  | 'expire'
  | 'dispute-refund'
  | 'dispute-close';

/** A paid sale, and the stage the server's answers put it in (null: not known yet). */
export type SaleRecord = {
  orderId: string;
  productId: string;
  transactionId: string;
  email: string;
  /** The buyer's access token, to read the sale at the end (not reported). */
  token: string;
  priceCents: number;
  fate: SaleFate;
  wrongCodes: number;
  /** The hold expired before the handover or cancel came (409): the sale must be expired. */
  tooLate: boolean;
  /** Reported after the funds hold and a payout period (the share likely paid out already). */
  lateReport: boolean;
  stage: OrderStage | null;
};

/** A message the server answered for: the buyer's note to the seller of a phone they paid for. */
export type AcknowledgedMessage = { conversationId: string; email: string; body: string };

export type Ledger = {
  acknowledged: AcknowledgedPayment[];
  released: ReleasedPayment[];
  sales: SaleRecord[];
  /** Messages acknowledged to their writers (optional: runs before messaging have none). */
  messages?: AcknowledgedMessage[];
};

/** How often each fate is chosen (weights); see SaleOptions for the ones a run can rule out. */
const FATES: [SaleFate, number][] = [
  ['handover', 36],
  ['buyer-cancel', 14],
  ['seller-cancel', 10],
  ['expire', 24],
  ['dispute-refund', 10],
  ['dispute-close', 6],
];

export type SaleOptions = {
  /** Who sells each phone of the stock. */
  sellerOf: Map<string, Account>;
  /** An admin who decides reported problems; null: no disputes. */
  admin: Account | null;
  /** Whether holds expire within the run (the soak's own server has a short HOLD_DAYS). */
  expiries: boolean;
  /**
   * How long after the handover a late report comes (past the funds hold and a payout period);
   * null: none late. Most reports on a sale whose seller's payouts arrive are late.
   */
  lateReportMs: number | null;
  /** Whether the payouts of the phone's seller arrive (a paying account): late reports go there. */
  paysOut: (productId: string) => boolean;
};

/** The share of reports to be closed on a paid-out seller's sales that come late (refunds: all). */
const LATE_REPORTS = 0.5;

/**
 * A fate the run allows. A phone whose seller the soak has no account of (demo data) is never
 * handed over. A race's winner keeps the phone (handed over, perhaps disputed): a cancel would
 * put it on sale again, and a second racer's win then would look like a double sale.
 */
function chooseFate(
  { admin, expiries }: SaleOptions,
  { hasSeller, race }: { hasSeller: boolean; race: boolean },
): SaleFate {
  const needsSeller = (fate: SaleFate) => fate !== 'buyer-cancel' && fate !== 'expire';
  const freesPhone = (fate: SaleFate) => fate.endsWith('cancel') || fate === 'expire';
  const allowed = FATES.filter(
    ([fate]) =>
      (admin || !fate.startsWith('dispute')) &&
      (expiries || fate !== 'expire') &&
      (hasSeller || !needsSeller(fate)) &&
      (!race || !freesPhone(fate)),
  );
  let roll = Math.random() * allowed.reduce((n, [, w]) => n + w, 0);
  for (const [fate, weight] of allowed) {
    roll -= weight;
    if (roll < 0) return fate;
  }
  return 'handover';
}

/** Any six digits but `code`. */
const wrongCode = (code: string) =>
  String((Number(code) + 1 + Math.floor(Math.random() * 999_998)) % 1_000_000).padStart(6, '0');

export class Race {
  joined = 0;
  private arrived = 0;
  winners = 0;
  released = 0;
  readonly ready: Promise<void>;
  private release: () => void = () => {};

  constructor(
    readonly phone: Listed,
    readonly size: number,
    windowMs: number,
  ) {
    this.ready = new Promise((resolve) => {
      this.release = resolve;
    });
    // Whoever has not arrived by then is not waited for.
    setTimeout(() => this.release(), windowMs).unref();
  }

  /** Waits until every racer has an intent (or gave up), so the card confirmations collide. */
  arrive(): Promise<void> {
    this.arrived++;
    if (this.arrived >= this.size) this.release();
    return this.ready;
  }
}

export class RaceBoard {
  readonly races: Race[] = [];
  private current: Race | null = null;

  constructor(
    private readonly pool: Listed[],
    private readonly size: number,
    private readonly windowMs = 8_000,
  ) {}

  join(): Race | null {
    if (!this.current || this.current.joined >= this.size) {
      const phone = this.pool.shift();
      if (!phone) return null;
      this.current = new Race(phone, this.size, this.windowMs);
      this.races.push(this.current);
    }
    this.current.joined++;
    return this.current;
  }
}

export type UserContext = {
  http: Http;
  runId: string;
  /** No new step starts after this (a payment under way is finished). */
  deadline: number;
  ledger: Ledger;
  races: RaceBoard;
  raceChance: number;
  racePhones: Set<string>;
  thinkMs: [number, number];
  sales: SaleOptions;
};

const pick = <T>(items: readonly T[]): T | undefined =>
  items[Math.floor(Math.random() * items.length)];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An admin's refund refused while a capture is under way is asked again this often, for a minute. */
const CAPTURE_WAIT_MS = 2_000;
const CAPTURE_ASKS = 30;

type Candidate = { productId: string };

class SimulatedUser {
  private readonly wished: string[] = [];
  private readonly booked: string[] = [];

  constructor(
    private readonly ctx: UserContext,
    private readonly account: Account,
  ) {}

  private think(scale = 1) {
    const [min, max] = this.ctx.thinkMs;
    return sleep((min + Math.random() * (max - min)) * scale);
  }

  private get timeIsUp() {
    return Date.now() >= this.ctx.deadline;
  }

  async run(): Promise<void> {
    while (!this.timeIsUp) {
      const candidates = await this.browse();
      await this.think();
      if (this.timeIsUp) break;
      if (Math.random() < 0.5) await this.wish(candidates);
      await this.think();
      if (this.timeIsUp) break;
      const roll = Math.random();
      if (roll < this.ctx.raceChance) {
        await this.race();
      } else if (roll < 0.45) {
        const productId = await this.book(candidates);
        if (productId && Math.random() < 0.6) {
          await this.think();
          await this.pay(productId);
        }
      }
      await this.think(2);
    }
  }

  private async browse(): Promise<Candidate[]> {
    const { http } = this.ctx;
    const categories = await http.call('browse:categories', '/api/category', {
      accept: (s, b) => (s === 200 && Array.isArray(b) ? 'ok' : undefined),
    });
    const codes = ((categories?.body ?? []) as { categoryId: string }[]).map((c) => c.categoryId);
    const code = pick(codes) ?? '01';
    const found: Candidate[] = [];
    let path: string | null = `/api/category/${code}?limit=24`;
    // Scroll on while the page shows little for sale, as a person would (at most five pages).
    for (let page = 0; path && page < 5; page++) {
      if (page > 0) await this.think(0.5);
      const reply: Awaited<ReturnType<Http['call']>> = await http.call(
        page === 0 ? 'browse:category' : 'browse:category-next-page',
        path,
        { accept: (s, b) => (s === 200 && Array.isArray(b) ? 'ok' : undefined) },
      );
      if (!reply) break;
      for (const p of reply.body as { _id: string; status: string }[]) {
        if (p.status === 'available' && !this.ctx.racePhones.has(p._id))
          found.push({ productId: p._id });
      }
      path = found.length >= 6 ? null : nextLink(reply.headers.get('link'));
    }
    if (Math.random() < 0.5) {
      const ads = await http.call('browse:advertised', '/api/advertise', {
        accept: (s, b) => (s === 200 && Array.isArray(b) ? 'ok' : undefined),
      });
      for (const ad of (ads?.body ?? []) as { advertiseId: string }[]) {
        if (!this.ctx.racePhones.has(ad.advertiseId)) found.push({ productId: ad.advertiseId });
      }
    }
    return found;
  }

  private async wish(candidates: Candidate[]): Promise<void> {
    // Sometimes the heart is pressed twice: 'Already Added' is the expected answer.
    const again = this.wished.length > 0 && Math.random() < 0.15;
    const productId = again ? pick(this.wished) : pick(candidates)?.productId;
    if (!productId) return;
    const reply = await this.ctx.http.call('wishlist', '/api/wishlist', {
      method: 'POST',
      token: this.account.token,
      json: { productId },
      accept: (s, b) => {
        if (s !== 200) return undefined;
        const body = b as { acknowledged: boolean; message?: string };
        if (body.acknowledged) return 'added';
        return body.message === 'Already Added' ? 'already-added' : undefined;
      },
    });
    if (reply && !this.wished.includes(productId)) this.wished.push(productId);
  }

  /** Books a phone; answers its id when this booking is new. */
  private async book(candidates: Candidate[], chosen?: string): Promise<string | null> {
    const again = !chosen && this.booked.length > 0 && Math.random() < 0.1;
    const productId = chosen ?? (again ? pick(this.booked) : pick(candidates)?.productId);
    if (!productId) return null;
    const reply = await this.ctx.http.call('book', '/api/order', {
      method: 'POST',
      token: this.account.token,
      json: { productId, location: 'Austin, TX', number: '+1 512 555 0199' },
      accept: (s, b) => {
        if (s === 200) return 'booked';
        if (s !== 409) return undefined;
        if (messageOf(b) === 'Already Booked') return 'already-booked';
        return messageOf(b) === 'This phone is already sold' ? 'sold' : undefined;
      },
    });
    if (reply?.status !== 200) return null;
    this.booked.push(productId);
    // Half the buyers write to the seller before paying, and again a moment later (not in a
    // race for one phone: there every moment counts).
    if (!chosen && Math.random() < 0.5) await this.write(productId);
    return productId;
  }

  /** The client's payment page: the order, an intent, the card, then the record call. */
  private async pay(productId: string, race?: Race): Promise<void> {
    const { http, ledger } = this.ctx;
    const { account } = this;
    const orders = await http.call(
      'my-orders',
      `/api/order?email=${encodeURIComponent(account.email)}&limit=100`,
      {
        token: account.token,
        accept: (s, b) => (s === 200 && Array.isArray(b) ? 'ok' : undefined),
      },
    );
    // The booking just made: an earlier sale of the same phone (cancelled, expired) stays listed.
    const order = (
      (orders?.body ?? []) as { _id: string; productId: string; price: number; stage: string }[]
    ).find((o) => o.productId === productId && o.stage === 'booked');
    if (!orders) return void race?.arrive();
    if (!order) {
      http.stats.error('unexpected', 'my-orders', `a booked order is missing (${productId})`);
      return void race?.arrive();
    }
    const intent = await http.call('payment-intent', '/api/create-payment-intent', {
      method: 'POST',
      token: account.token,
      json: { orderId: order._id, price: order.price },
      accept: (s, b) => {
        if (s === 200) return 'created';
        return s === 409 && messageOf(b) === 'This phone is no longer for sale'
          ? 'sold'
          : undefined;
      },
    });
    if (race) await race.arrive();
    if (intent?.status !== 200) return;
    const { clientSecret } = intent.body as { clientSecret: string };
    const confirmed = await http.call('card-confirm', '/api/test-payments/confirm', {
      method: 'POST',
      json: {
        clientSecret,
        card: {
          number: TEST_CARD,
          expMonth: 12,
          expYear: new Date().getFullYear() + 3,
          cvc: '123',
        },
        billingDetails: { name: account.name, email: account.email },
      },
      // Authorised (the money is held); or released at once when another buyer's payment of the
      // phone was recorded first (the confirmation records the payment itself).
      accept: (s, b) => {
        const status = (b as { paymentIntent?: { status?: string } }).paymentIntent?.status;
        if (s !== 200) return undefined;
        if (status === 'requires_capture') return 'authorised';
        return status === 'canceled' ? 'released' : undefined;
      },
    });
    if (!confirmed) return;
    const transactionId = (confirmed.body as { paymentIntent: { id: string } }).paymentIntent.id;
    const record = () =>
      http.call('record-payment', '/api/payment', {
        method: 'POST',
        token: account.token,
        json: { transactionId, orderId: order._id },
        accept: (s, b) => {
          if (s === 200 && typeof (b as { insertedId?: unknown }).insertedId === 'string')
            return 'recorded';
          return s === 409 && messageOf(b).includes('hold on your card has been released')
            ? 'released'
            : undefined;
        },
      });
    // Now and then the pay button is pressed twice: both answers must name one payment.
    const doubleClick = !race && Math.random() < 0.1;
    const [recorded, again] = await Promise.all([record(), doubleClick ? record() : null]);
    const idOf = (r: typeof recorded) =>
      (r?.body as { insertedId?: string } | undefined)?.insertedId;
    if (doubleClick && recorded && again && idOf(recorded) !== idOf(again)) {
      http.stats.error(
        'unexpected',
        'record-payment',
        `a double submit answered ${recorded.status} ${idOf(recorded)} and ${again.status} ${idOf(again)}`,
      );
    }
    if (!recorded) return;
    if (recorded.status === 200) {
      if (race) race.winners++;
      const priceCents = Math.round(order.price * 100);
      ledger.acknowledged.push({
        insertedId: (recorded.body as { insertedId: string }).insertedId,
        transactionId,
        orderId: order._id,
        email: account.email,
        priceCents,
      });
      await this.sell({
        orderId: order._id,
        productId,
        transactionId,
        email: account.email,
        token: account.token,
        priceCents,
        fate: chooseFate(this.ctx.sales, {
          hasSeller: this.ctx.sales.sellerOf.has(productId),
          race: race !== undefined,
        }),
        wrongCodes: 0,
        tooLate: false,
        lateReport: false,
        stage: 'paid',
      });
    } else {
      if (race) race.released++;
      ledger.released.push({ transactionId, orderId: order._id, email: account.email });
    }
  }

  /** The sale after the payment, to the fate chosen for it. */
  private async sell(sale: SaleRecord): Promise<void> {
    const { http, ledger, sales } = this.ctx;
    ledger.sales.push(sale);
    if (sale.fate === 'expire') {
      // Nobody comes to the meeting: the timed work releases the hold (checked at the end).
      sale.stage = null;
      return;
    }
    const seller = sales.sellerOf.get(sale.productId) ?? null;
    await this.think();
    if (sale.fate === 'buyer-cancel' || sale.fate === 'seller-cancel') {
      const side = sale.fate === 'buyer-cancel' ? 'buyer' : 'seller';
      const reply = await http.call(
        `sale:cancel-by-${side}`,
        `/api/orders/${sale.orderId}/cancel`,
        {
          method: 'POST',
          token: side === 'buyer' ? this.account.token : (seller as Account).token,
          accept: (s, b) => {
            if (s === 200) return 'cancelled';
            return s === 409 && /expired/.test(messageOf(b)) ? 'expired-first' : undefined;
          },
        },
      );
      this.settled(sale, reply, 'cancelled');
      return;
    }
    // The handover: the buyer opens the sale for the code, the seller enters it at the meeting.
    const view = await http.call('sale:buyer-reads-code', `/api/orders/${sale.orderId}`, {
      token: this.account.token,
      accept: (s, b) => {
        const read = b as { stage?: string; handoverCode?: string | null };
        if (s !== 200) return undefined;
        if (read.stage === 'paid' && /^\d{6}$/.test(read.handoverCode ?? '')) return 'code';
        return read.stage === 'expired' && read.handoverCode === null ? 'expired-first' : undefined;
      },
    });
    if (!view || !seller) return;
    const { handoverCode: code } = view.body as { handoverCode: string | null };
    if (!code) return this.settled(sale, null, 'completed', true);
    await this.think();
    await http.call('sale:seller-reads-sale', `/api/orders/${sale.orderId}`, {
      token: seller.token,
      // The code is the buyer's to give: the seller's view never shows it.
      accept: (s, b) =>
        s === 200 && (b as { handoverCode?: unknown }).handoverCode === null ? 'ok' : undefined,
    });
    const handOver = (given: string, operation: string, accept: Accept) =>
      http.call(operation, `/api/orders/${sale.orderId}/handover`, {
        method: 'POST',
        token: seller.token,
        json: { code: given },
        accept,
      });
    const expiredFirst = (s: number, b: unknown) =>
      s === 409 && /expired/.test(messageOf(b)) ? 'expired-first' : undefined;
    // Now and then the seller mistypes it once or twice first.
    const mistakes = Math.random() < 0.25 ? 1 + Math.floor(Math.random() * 2) : 0;
    for (let i = 0; i < mistakes; i++) {
      const wrong = await handOver(wrongCode(code), 'sale:handover-wrong-code', (s, b) =>
        s === 400 && /not right/.test(messageOf(b)) ? 'refused' : expiredFirst(s, b),
      );
      if (!wrong) return;
      if (wrong.status === 409) return this.settled(sale, null, 'completed', true);
      sale.wrongCodes++;
    }
    const handed = await handOver(code, 'sale:handover', (s, b) =>
      s === 200 ? 'completed' : expiredFirst(s, b),
    );
    this.settled(sale, handed, 'completed');
    if (sale.stage !== 'completed' || !sale.fate.startsWith('dispute')) return;

    // A problem reported after the handover, decided by the admin; late, now and then, when the
    // share may have been paid out (the buyer's report window is longer than the funds hold).
    sale.lateReport =
      sales.lateReportMs !== null &&
      sales.paysOut(sale.productId) &&
      (sale.fate === 'dispute-refund' || Math.random() < LATE_REPORTS);
    if (sale.lateReport) await sleep(sales.lateReportMs as number);
    else await this.think();
    const reported = await http.call('sale:report-problem', `/api/orders/${sale.orderId}/report`, {
      method: 'POST',
      token: this.account.token,
      json: { reason: 'The phone does not hold a charge (soak test).' },
      accept: (s) => (s === 200 ? 'reported' : undefined),
    });
    if (!reported) return;
    sale.stage = 'disputed';
    const admin = sales.admin as Account;
    await this.think();
    const decision = sale.fate === 'dispute-refund' ? 'refund' : 'close';
    // A refund while the handover's capture is still under way (its processor slow or down, as in
    // a failover) is refused with "try again in a minute": the admin waits and asks again, as the
    // answer says, for up to that minute.
    let decided: Reply | null = null;
    for (let asked = 1; ; asked++) {
      decided = await http.call(`sale:admin-${decision}`, `/api/disputes/${sale.orderId}`, {
        method: 'POST',
        token: admin.token,
        json: { decision },
        accept: (s, b) =>
          s === 200
            ? decision
            : s === 409 && asked < CAPTURE_ASKS && /still being captured/.test(messageOf(b))
              ? 'still-capturing'
              : undefined,
      });
      if (decided?.status !== 409) break;
      await sleep(CAPTURE_WAIT_MS);
    }
    if (decided) sale.stage = decision === 'refund' ? 'refunded' : 'completed';
  }

  /**
   * Notes where a handover or cancel left the sale: `done` on success; unknown (read at the end,
   * where it must be expired) when the hold expired first; unchanged when the call failed.
   */
  /** The buyer starts a conversation about the phone and writes once more; each answer noted. */
  private async write(productId: string): Promise<void> {
    const { http, ledger } = this.ctx;
    const { account } = this;
    const first = 'Is the meeting still on?';
    const started = await http.call('message:start', '/api/conversations', {
      method: 'POST',
      token: account.token,
      json: { productId, body: first },
      // Another buyer's payment may have sold the phone since it was booked.
      accept: (s, b) =>
        s === 200 && typeof (b as { conversationId?: unknown }).conversationId === 'string'
          ? 'sent'
          : s === 409 && messageOf(b) === 'This phone is no longer for sale'
            ? 'sold'
            : undefined,
    });
    if (started?.status !== 200) return;
    const conversationId = (started.body as { conversationId: string }).conversationId;
    ledger.messages ??= [];
    ledger.messages.push({ conversationId, email: account.email, body: first });
    await this.think();
    const second = 'On my way.';
    const sent = await http.call('message:send', `/api/conversations/${conversationId}/messages`, {
      method: 'POST',
      token: account.token,
      json: { body: second },
      accept: (s, b) =>
        s === 200 && typeof (b as { messageId?: unknown }).messageId === 'string'
          ? 'sent'
          : undefined,
    });
    if (sent) ledger.messages.push({ conversationId, email: account.email, body: second });
  }

  private settled(sale: SaleRecord, reply: Reply | null, done: OrderStage, expiredFirst = false) {
    if (expiredFirst || reply?.status === 409) {
      sale.tooLate = true;
      sale.stage = null;
    } else if (reply?.status === 200) {
      sale.stage = done;
    }
  }

  private async race(): Promise<void> {
    const race = this.ctx.races.join();
    if (!race) return;
    const productId = await this.book([], race.phone.productId);
    if (!productId) {
      await race.arrive();
      return;
    }
    await this.pay(productId, race);
  }
}

/** Runs one buyer from sign-up until the deadline. */
export async function runUser(ctx: UserContext, index: number): Promise<void> {
  const email = `soak-${ctx.runId}-u${index}@soak.example`;
  const account = await createAccount(ctx.http, email, `Soak Buyer ${index}`, 'user');
  if (!account) return;
  await new SimulatedUser(ctx, account).run();
}
