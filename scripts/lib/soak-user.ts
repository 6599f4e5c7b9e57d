/**
 * One simulated buyer: signs up, then until time is up browses, wish-lists, books and pays for
 * some bookings, with a person's think time between steps. Now and then several buyers race
 * for one phone: they book it and open payment intents, then all confirm their cards at once,
 * so one wins and the others are refunded (409).
 */

import { nextLink } from '../../src/shared/pagination';
import type { Listed } from './soak-catalog';
import { type Account, createAccount, type Http, messageOf } from './soak-http';

export const TEST_CARD = '4242424242424242';

export type AcknowledgedPayment = {
  insertedId: string;
  transactionId: string;
  orderId: string;
  email: string;
  priceCents: number;
};
export type RefundedPayment = { transactionId: string; orderId: string; email: string };

export type Ledger = { acknowledged: AcknowledgedPayment[]; refunded: RefundedPayment[] };

export class Race {
  joined = 0;
  private arrived = 0;
  winners = 0;
  refunded = 0;
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
  raceSeller: string;
  thinkMs: [number, number];
};

const pick = <T>(items: readonly T[]): T | undefined =>
  items[Math.floor(Math.random() * items.length)];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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
      for (const p of reply.body as { _id: string; status: string; email: string }[]) {
        if (p.status === 'available' && p.email !== this.ctx.raceSeller)
          found.push({ productId: p._id });
      }
      path = found.length >= 6 ? null : nextLink(reply.headers.get('link'));
    }
    if (Math.random() < 0.5) {
      const ads = await http.call('browse:advertised', '/api/advertise', {
        accept: (s, b) => (s === 200 && Array.isArray(b) ? 'ok' : undefined),
      });
      for (const ad of (ads?.body ?? []) as { advertiseId: string; email: string }[]) {
        if (ad.email !== this.ctx.raceSeller) found.push({ productId: ad.advertiseId });
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
    const order = (
      (orders?.body ?? []) as { _id: string; productId: string; price: number }[]
    ).find((o) => o.productId === productId);
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
      accept: (s, b) =>
        s === 200 &&
        (b as { paymentIntent?: { status?: string } }).paymentIntent?.status === 'succeeded'
          ? 'succeeded'
          : undefined,
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
          return s === 409 && messageOf(b).includes('refunded') ? 'refunded' : undefined;
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
      ledger.acknowledged.push({
        insertedId: (recorded.body as { insertedId: string }).insertedId,
        transactionId,
        orderId: order._id,
        email: account.email,
        priceCents: Math.round(order.price * 100),
      });
    } else {
      if (race) race.refunded++;
      ledger.refunded.push({ transactionId, orderId: order._id, email: account.email });
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
