/**
 * A local stand-in for the part of Stripe's API we use, answering as its reference documents:
 * PaymentIntents (create, retrieve with `expand[]=latest_charge`, update, confirm with a test
 * payment method), refunds, bearer-key authentication and `{ error: { type, code, message } }` errors.
 * Confirming stands for what Stripe.js does in the buyer's browser.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type Intent = {
  id: string;
  object: 'payment_intent';
  amount: number;
  currency: string;
  status: 'requires_payment_method' | 'succeeded';
  client_secret: string;
  metadata: Record<string, string>;
  receipt_email: string | null;
  latest_charge: string | null;
  last_payment_error: unknown;
};
type Charge = {
  id: string;
  object: 'charge';
  amount: number;
  amount_refunded: number;
  refunded: boolean;
  payment_intent: string;
};
export type RecordedRequest = {
  method: string;
  path: string;
  form: Record<string, string>;
  idempotencyKey?: string;
};

/** Stripe's test payment methods: what confirming with each one does. */
const DECLINES: Record<string, { code: string; decline_code?: string; message: string }> = {
  pm_card_chargeDeclined: {
    code: 'card_declined',
    decline_code: 'generic_decline',
    message: 'Your card was declined.',
  },
  pm_card_chargeDeclinedInsufficientFunds: {
    code: 'card_declined',
    decline_code: 'insufficient_funds',
    message: 'Your card has insufficient funds.',
  },
};

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/** `a[b]=1&c[0]=x` as Stripe's SDK encodes it, flattened to `{ 'a[b]': '1', 'c[0]': 'x' }`. */
function formOf(text: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(text));
}

export async function startStripeDouble(secretKey: string) {
  const intents = new Map<string, Intent>();
  const charges = new Map<string, Charge>();
  const requests: RecordedRequest[] = [];
  /** When set, every call answers 500 as Stripe does when it has trouble of its own. */
  let failing = false;

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
    res.end(JSON.stringify(body));
  };
  const invalid = (res: ServerResponse, status: number, code: string, message: string) =>
    send(res, status, { error: { type: 'invalid_request_error', code, message } });
  const view = (intent: Intent, expand: string[]) => ({
    ...intent,
    latest_charge:
      intent.latest_charge && expand.includes('latest_charge')
        ? charges.get(intent.latest_charge)
        : intent.latest_charge,
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://stripe.test');
    let text = '';
    for await (const chunk of req) text += chunk;
    const form = { ...formOf(url.search.slice(1)), ...formOf(text) };
    const key = req.headers['idempotency-key'];
    requests.push({
      method: req.method ?? '',
      path: url.pathname,
      form,
      idempotencyKey: typeof key === 'string' ? key : undefined,
    });
    if (req.headers.authorization !== `Bearer ${secretKey}`) {
      return send(res, 401, {
        error: { type: 'invalid_request_error', message: 'Invalid API Key provided' },
      });
    }
    if (failing) {
      return send(res, 500, { error: { type: 'api_error', message: 'An unknown error occurred' } });
    }
    const expand = Object.entries(form)
      .filter(([k]) => k.startsWith('expand['))
      .map(([, v]) => v);
    const [, version, resource, objectId, action] = url.pathname.split('/');
    if (version !== 'v1') return invalid(res, 404, 'resource_missing', 'Unrecognized request URL');

    if (resource === 'payment_intents' && req.method === 'POST' && !objectId) {
      const amount = Number(form.amount);
      if (!Number.isInteger(amount) || amount < 50) {
        return invalid(res, 400, 'amount_too_small', 'Amount must be at least $0.50 usd');
      }
      const intentId = id('pi');
      const intent: Intent = {
        id: intentId,
        object: 'payment_intent',
        amount,
        currency: form.currency ?? 'usd',
        status: 'requires_payment_method',
        client_secret: `${intentId}_secret_${randomBytes(12).toString('hex')}`,
        metadata: Object.fromEntries(
          Object.entries(form)
            .filter(([k]) => k.startsWith('metadata['))
            .map(([k, v]) => [k.slice('metadata['.length, -1), v]),
        ),
        receipt_email: form.receipt_email ?? null,
        latest_charge: null,
        last_payment_error: null,
      };
      intents.set(intentId, intent);
      return send(res, 200, view(intent, expand));
    }
    if (resource === 'payment_intents' && objectId) {
      const intent = intents.get(objectId);
      if (!intent) {
        return invalid(res, 404, 'resource_missing', `No such payment_intent: '${objectId}'`);
      }
      if (req.method === 'GET' && !action) return send(res, 200, view(intent, expand));
      if (req.method === 'POST' && !action) {
        // Update: the amount while unpaid; metadata keys merge into what is there.
        if (form.amount !== undefined && intent.status === 'succeeded') {
          return invalid(
            res,
            400,
            'payment_intent_unexpected_state',
            'You cannot update the amount of a PaymentIntent that has succeeded.',
          );
        }
        if (form.amount !== undefined) intent.amount = Number(form.amount);
        for (const [k, v] of Object.entries(form)) {
          if (k.startsWith('metadata[')) intent.metadata[k.slice('metadata['.length, -1)] = v;
        }
        return send(res, 200, view(intent, expand));
      }
      if (req.method === 'POST' && action === 'confirm') {
        if (intent.status === 'succeeded') {
          return invalid(
            res,
            400,
            'payment_intent_unexpected_state',
            'This PaymentIntent has already succeeded.',
          );
        }
        const decline = DECLINES[form.payment_method ?? ''];
        if (decline) {
          intent.last_payment_error = { type: 'card_error', ...decline };
          return send(res, 402, { error: { type: 'card_error', ...decline } });
        }
        const charge: Charge = {
          id: id('ch'),
          object: 'charge',
          amount: intent.amount,
          amount_refunded: 0,
          refunded: false,
          payment_intent: intent.id,
        };
        charges.set(charge.id, charge);
        Object.assign(intent, { status: 'succeeded', latest_charge: charge.id });
        return send(res, 200, view(intent, expand));
      }
    }
    if (resource === 'refunds' && req.method === 'POST' && !objectId) {
      const intent = intents.get(form.payment_intent ?? '');
      const charge = intent?.latest_charge ? charges.get(intent.latest_charge) : undefined;
      if (!intent || !charge) {
        return invalid(res, 400, 'resource_missing', 'This PaymentIntent has no charge to refund.');
      }
      if (charge.refunded) {
        return invalid(
          res,
          400,
          'charge_already_refunded',
          `Charge ${charge.id} has already been refunded.`,
        );
      }
      Object.assign(charge, { refunded: true, amount_refunded: charge.amount });
      return send(res, 200, {
        id: id('re'),
        object: 'refund',
        amount: charge.amount,
        status: 'succeeded',
        payment_intent: intent.id,
        charge: charge.id,
      });
    }
    return invalid(res, 404, 'resource_missing', 'Unrecognized request URL');
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err) => send(res, 500, { error: { message: String(err) } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const postWithKey = async (path: string, form: Record<string, string>) => {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${secretKey}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams(form),
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  };
  return {
    url: `http://127.0.0.1:${port}`,
    intents,
    charges,
    requests,
    setFailing: (value: boolean) => {
      failing = value;
    },
    /**
     * Stripe's update call made with our secret key, as the dashboard or another integration on
     * the same account could: `{ amount: '100' }`, `{ 'metadata[orderId]': '…' }`.
     */
    update: (intentId: string, form: Record<string, string>) =>
      postWithKey(`/v1/payment_intents/${intentId}`, form),
    /** A whole refund made with our secret key, as the dashboard's Refund button does. */
    refund: (intentId: string) => postWithKey('/v1/refunds', { payment_intent: intentId }),
    /** What Stripe.js does in the browser when the buyer presses Pay. */
    async confirm(intentId: string, paymentMethod = 'pm_card_visa') {
      const res = await fetch(`http://127.0.0.1:${port}/v1/payment_intents/${intentId}/confirm`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${secretKey}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ payment_method: paymentMethod }),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
