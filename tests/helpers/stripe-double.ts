/**
 * A local stand-in for the part of Stripe's API we use, answering as its reference documents
 * (API version 2025-03-31 and later): PaymentIntents (create, retrieve with
 * `expand[]=latest_charge`, update, confirm with a test payment method, capture, cancel), refunds,
 * bearer-key authentication, `{ error: { type, code, message } }` errors, and idempotency keys
 * (the first answer of an endpoint that began executing is saved and replayed for the same key
 * and parameters; other parameters under the same key are refused). Confirming stands for what
 * Stripe.js does in the buyer's browser.
 *
 * Manual capture as Stripe does it: confirming an intent made with `capture_method=manual`
 * authorises the card (`requires_capture`, `amount_capturable`); capturing takes the money
 * (`succeeded`); cancelling lets the hold go (`canceled`; since 2025-03-31 the charge is not
 * marked refunded); Stripe cancels an uncaptured intent itself when the authorisation runs out
 * (`cancellation_reason: 'expired'`). A step on an intent in another state is refused with
 * `payment_intent_unexpected_state`, the intent in the error.
 *
 * Connect (separate charges and transfers): Express accounts (create, retrieve; onboarding stands
 * for what the seller does on Stripe's pages, `completeOnboarding`, and Stripe's own restriction
 * for what its review does, `restrictAccount`), account links, transfers to an account that can
 * receive them funded by a captured charge's un-transferred amount (`source_transaction`), their
 * reversals, and each account's `account.updated` events.
 *
 * Every change is also an event (`events`), as Stripe would send to a webhook endpoint; `signed`
 * signs one with the endpoint's secret, as Stripe does, and the test delivers it when it likes
 * (Stripe delivers late, twice or out of order as well).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type IntentStatus = 'requires_payment_method' | 'requires_capture' | 'succeeded' | 'canceled';
type Intent = {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_capturable: number;
  amount_received: number;
  capture_method: 'automatic' | 'automatic_async' | 'manual';
  currency: string;
  status: IntentStatus;
  client_secret: string;
  metadata: Record<string, string>;
  receipt_email: string | null;
  latest_charge: string | null;
  last_payment_error: unknown;
  canceled_at: number | null;
  cancellation_reason: string | null;
  created: number;
  livemode: false;
};
type Charge = {
  id: string;
  object: 'charge';
  amount: number;
  amount_captured: number;
  amount_refunded: number;
  captured: boolean;
  refunded: boolean;
  paid: boolean;
  status: 'succeeded';
  currency: string;
  payment_intent: string;
  created: number;
};
type ConnectAccount = {
  id: string;
  object: 'account';
  type: 'express';
  email: string | null;
  metadata: Record<string, string>;
  details_submitted: boolean;
  charges_enabled: boolean;
  payouts_enabled: boolean;
  capabilities: { transfers?: 'active' | 'inactive' | 'pending' };
  requirements: {
    currently_due: string[];
    eventually_due: string[];
    past_due: string[];
    pending_verification: string[];
    disabled_reason: string | null;
  };
  created: number;
};
type Reversal = {
  id: string;
  object: 'transfer_reversal';
  amount: number;
  currency: string;
  transfer: string;
  created: number;
};
type Transfer = {
  id: string;
  object: 'transfer';
  amount: number;
  amount_reversed: number;
  currency: string;
  destination: string;
  source_transaction: string | null;
  transfer_group: string | null;
  reversed: boolean;
  reversals: { object: 'list'; data: Reversal[]; has_more: false; url: string };
  metadata: Record<string, string>;
  created: number;
};
export type StripeEvent = {
  id: string;
  object: 'event';
  /** Connect events: the connected account the event is about. */
  account?: string;
  api_version: string;
  created: number;
  type: string;
  data: { object: Record<string, unknown> };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
};
export type RecordedRequest = {
  method: string;
  path: string;
  form: Record<string, string>;
  idempotencyKey?: string;
  /** The answer's status; 0 when the connection was cut before an answer. */
  status: number;
  /** Answered from the idempotency key's saved answer: nothing ran again. */
  replayed: boolean;
};
/** A money step Stripe actually ran (a replayed answer is not one). */
export type Step = {
  action: 'confirm' | 'capture' | 'cancel' | 'refund' | 'expire';
  intent: string;
};

/** What a new Express account still owes before Stripe lets it receive transfers. */
const ONBOARDING_DUE = [
  'business_profile.url',
  'external_account',
  'individual.dob.day',
  'individual.first_name',
  'individual.last_name',
  'tos_acceptance.date',
];

const API_VERSION = '2026-10-28.endive';

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

/** The statuses each step may start from, as Stripe's reference lists them. */
const STEP_FROM: Record<'confirm' | 'capture' | 'cancel', readonly string[]> = {
  confirm: ['requires_payment_method', 'requires_confirmation'],
  capture: ['requires_capture'],
  cancel: [
    'requires_payment_method',
    'requires_capture',
    'requires_confirmation',
    'requires_action',
    'processing',
  ],
};
/** Errors of a call refused before its endpoint ran: Stripe saves no answer for its key. */
const NOT_EXECUTED = new Set([
  'resource_missing',
  'amount_too_small',
  'amount_too_large',
  'parameter_invalid_string',
  'parameter_invalid_integer',
  'parameter_missing',
  'url_invalid',
]);
const STEP_WORDS = { confirm: 'confirmed', capture: 'captured', cancel: 'canceled' } as const;

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const now = () => Math.floor(Date.now() / 1000);

/** `a[b]=1&c[0]=x` as Stripe's SDK encodes it, flattened to `{ 'a[b]': '1', 'c[0]': 'x' }`. */
function formOf(text: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(text));
}

/** The header Stripe signs a webhook call with: `t=<time>,v1=<HMAC-SHA256 of "t.payload">`. */
export function stripeSignature(payload: string, secret: string, time = now()): string {
  const v1 = createHmac('sha256', secret).update(`${time}.${payload}`).digest('hex');
  return `t=${time},v1=${v1}`;
}

type Answer = { status: number; body: unknown };
type Saved = Answer & { signature: string; requestId: string };

export async function startStripeDouble(
  secretKey: string,
  { webhookSecret = 'whsec_localdouble' }: { webhookSecret?: string } = {},
) {
  const intents = new Map<string, Intent>();
  const charges = new Map<string, Charge>();
  const accounts = new Map<string, ConnectAccount>();
  const transfers = new Map<string, Transfer>();
  const requests: RecordedRequest[] = [];
  const events: StripeEvent[] = [];
  const steps: Step[] = [];
  /** Answers saved per idempotency key (Stripe keeps them 24 hours; a test run is shorter). */
  const saved = new Map<string, Saved>();
  /** Stripe's trouble before any endpoint runs: every call answers 500 and nothing is saved. */
  let failing = false;
  /** The network after Stripe: every call runs (and is saved), its answer never arrives. */
  let losingAnswers = false;
  /** Only the answers to calls on paths that start with this are lost. */
  let losingOn = '/';

  const invalid = (status: number, code: string, message: string, extra = {}): Answer => ({
    status,
    body: { error: { type: 'invalid_request_error', code, message, ...extra } },
  });
  const view = (intent: Intent, expand: string[]) => ({
    ...intent,
    latest_charge:
      intent.latest_charge && expand.includes('latest_charge')
        ? { ...charges.get(intent.latest_charge) }
        : intent.latest_charge,
  });
  /** An event of the change just made, carrying a copy of the object as it is now. */
  const emit = (
    type: string,
    object: Intent | Charge | ConnectAccount | Transfer | Record<string, unknown>,
    key?: string,
    account?: string,
  ) => {
    events.push({
      id: id('evt'),
      ...(account ? { account } : {}),
      object: 'event',
      api_version: API_VERSION,
      created: now(),
      type,
      data: { object: structuredClone(object) as Record<string, unknown> },
      livemode: false,
      pending_webhooks: 1,
      request: { id: key === undefined ? null : id('req'), idempotency_key: key ?? null },
    });
  };
  const unexpectedState = (intent: Intent, step: keyof typeof STEP_FROM) =>
    invalid(
      400,
      'payment_intent_unexpected_state',
      `This PaymentIntent could not be ${STEP_WORDS[step]} because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be ${STEP_WORDS[step]}: ${STEP_FROM[step].join(', ')}.`,
      { payment_intent: view(intent, []) },
    );

  /** Stripe's own cancellation of an intent: by a call, the dashboard, or the hold running out. */
  function cancelIntent(intent: Intent, reason: string | null, key?: string) {
    const charge = intent.latest_charge ? charges.get(intent.latest_charge) : undefined;
    Object.assign(intent, {
      status: 'canceled',
      amount_capturable: 0,
      canceled_at: now(),
      cancellation_reason: reason,
    });
    steps.push({ action: reason === 'expired' ? 'expire' : 'cancel', intent: intent.id });
    // Since 2025-03-31 a released authorisation is no refund: the charge stays unrefunded.
    if (charge && reason === 'expired') emit('charge.expired', charge, key);
    emit('payment_intent.canceled', intent, key);
  }

  function createIntent(form: Record<string, string>): Answer {
    const amount = Number(form.amount);
    if (!Number.isInteger(amount) || amount < 50) {
      return invalid(400, 'amount_too_small', 'Amount must be at least $0.50 usd');
    }
    const captureMethod = form.capture_method ?? 'automatic_async';
    if (!['automatic', 'automatic_async', 'manual'].includes(captureMethod)) {
      return invalid(400, 'parameter_invalid_string', 'Invalid capture_method');
    }
    const intentId = id('pi');
    const intent: Intent = {
      id: intentId,
      object: 'payment_intent',
      amount,
      amount_capturable: 0,
      amount_received: 0,
      capture_method: captureMethod as Intent['capture_method'],
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
      canceled_at: null,
      cancellation_reason: null,
      created: now(),
      livemode: false,
    };
    intents.set(intentId, intent);
    return { status: 200, body: intent };
  }

  function confirm(intent: Intent, form: Record<string, string>, key?: string): Answer {
    if (!STEP_FROM.confirm.includes(intent.status)) return unexpectedState(intent, 'confirm');
    const decline = DECLINES[form.payment_method ?? ''];
    if (decline) {
      intent.last_payment_error = { type: 'card_error', ...decline };
      emit('payment_intent.payment_failed', intent, key);
      return { status: 402, body: { error: { type: 'card_error', ...decline } } };
    }
    const manual = intent.capture_method === 'manual';
    const charge: Charge = {
      id: id('ch'),
      object: 'charge',
      amount: intent.amount,
      amount_captured: manual ? 0 : intent.amount,
      amount_refunded: 0,
      captured: !manual,
      refunded: false,
      paid: true,
      status: 'succeeded',
      currency: intent.currency,
      payment_intent: intent.id,
      created: now(),
    };
    charges.set(charge.id, charge);
    Object.assign(intent, {
      latest_charge: charge.id,
      last_payment_error: null,
      ...(manual
        ? { status: 'requires_capture', amount_capturable: intent.amount }
        : { status: 'succeeded', amount_received: intent.amount }),
    });
    steps.push({ action: 'confirm', intent: intent.id });
    emit('charge.succeeded', charge, key);
    emit(
      manual ? 'payment_intent.amount_capturable_updated' : 'payment_intent.succeeded',
      intent,
      key,
    );
    return { status: 200, body: intent };
  }

  function capture(intent: Intent, form: Record<string, string>, key?: string): Answer {
    if (!STEP_FROM.capture.includes(intent.status)) return unexpectedState(intent, 'capture');
    const amount =
      form.amount_to_capture === undefined
        ? intent.amount_capturable
        : Number(form.amount_to_capture);
    if (!Number.isInteger(amount) || amount < 1 || amount > intent.amount_capturable) {
      return invalid(
        400,
        'amount_too_large',
        'The amount to capture must be at most the amount capturable.',
      );
    }
    const charge = charges.get(intent.latest_charge as string) as Charge;
    Object.assign(charge, { captured: true, amount_captured: amount });
    Object.assign(intent, { status: 'succeeded', amount_capturable: 0, amount_received: amount });
    steps.push({ action: 'capture', intent: intent.id });
    emit('charge.captured', charge, key);
    emit('payment_intent.succeeded', intent, key);
    return { status: 200, body: intent };
  }

  function cancel(intent: Intent, form: Record<string, string>, key?: string): Answer {
    if (!STEP_FROM.cancel.includes(intent.status)) return unexpectedState(intent, 'cancel');
    cancelIntent(intent, form.cancellation_reason ?? null, key);
    return { status: 200, body: intent };
  }

  function refund(form: Record<string, string>, key?: string): Answer {
    const intent = intents.get(form.payment_intent ?? '');
    if (!intent) {
      return invalid(
        400,
        'resource_missing',
        `No such payment_intent: '${form.payment_intent ?? ''}'`,
      );
    }
    const charge = intent.latest_charge ? charges.get(intent.latest_charge) : undefined;
    if (intent.status !== 'succeeded' || !charge?.captured) {
      return invalid(
        400,
        'payment_intent_unexpected_state',
        `This PaymentIntent could not be refunded because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be refunded: succeeded.`,
        { payment_intent: view(intent, []) },
      );
    }
    const left = charge.amount_captured - charge.amount_refunded;
    if (left === 0) {
      return invalid(
        400,
        'charge_already_refunded',
        `Charge ${charge.id} has already been refunded.`,
      );
    }
    const amount = form.amount === undefined ? left : Number(form.amount);
    if (!Number.isInteger(amount) || amount < 1 || amount > left) {
      return invalid(
        400,
        'amount_too_large',
        `Refund amount ($${amount / 100}) is greater than unrefunded amount on charge ($${left / 100})`,
      );
    }
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded === charge.amount_captured;
    steps.push({ action: 'refund', intent: intent.id });
    const made = {
      id: id('re'),
      object: 'refund',
      amount,
      currency: charge.currency,
      status: 'succeeded',
      payment_intent: intent.id,
      charge: charge.id,
      created: now(),
    };
    emit('refund.created', made, key);
    emit('charge.refunded', charge, key);
    return { status: 200, body: made };
  }

  /** Metadata as the SDK sends it (`metadata[k]=v`). */
  const metadataOf = (form: Record<string, string>) =>
    Object.fromEntries(
      Object.entries(form)
        .filter(([k]) => k.startsWith('metadata['))
        .map(([k, v]) => [k.slice('metadata['.length, -1), v]),
    );
  /** Stripe's answer for an account the key cannot reach (it does not exist, or is not ours). */
  const noAccess = (accountId: string): Answer => ({
    status: 403,
    body: {
      error: {
        type: 'invalid_request_error',
        code: 'account_invalid',
        message: `The provided key does not have access to account '${accountId}' (or that account does not exist). Application access may have been revoked.`,
      },
    },
  });

  function createAccount(form: Record<string, string>): Answer {
    if (form.type !== 'express') {
      return invalid(400, 'parameter_invalid_string', 'This double only makes Express accounts');
    }
    const account: ConnectAccount = {
      id: id('acct'),
      object: 'account',
      type: 'express',
      email: form.email ?? null,
      metadata: metadataOf(form),
      details_submitted: false,
      charges_enabled: false,
      payouts_enabled: false,
      capabilities:
        form['capabilities[transfers][requested]'] === 'true' ? { transfers: 'inactive' } : {},
      requirements: {
        currently_due: [...ONBOARDING_DUE],
        eventually_due: [...ONBOARDING_DUE],
        past_due: [...ONBOARDING_DUE],
        pending_verification: [],
        disabled_reason: 'requirements.past_due',
      },
      created: now(),
    };
    accounts.set(account.id, account);
    return { status: 200, body: account };
  }

  function createAccountLink(form: Record<string, string>): Answer {
    const account = accounts.get(form.account ?? '');
    if (!account) return noAccess(form.account ?? '');
    if (form.type !== 'account_onboarding' && form.type !== 'account_update') {
      return invalid(400, 'parameter_invalid_string', 'Invalid type');
    }
    for (const param of ['refresh_url', 'return_url'] as const) {
      if (!form[param]?.startsWith('http')) {
        return invalid(400, 'url_invalid', `Not a valid URL`, { param });
      }
    }
    return {
      status: 200,
      body: {
        object: 'account_link',
        created: now(),
        expires_at: now() + 300,
        url: `https://connect.stripe.com/setup/e/${account.id}/${randomBytes(9).toString('hex')}`,
      },
    };
  }

  /** What a charge can still fund: captured, less refunded, less transferred already. */
  const transferableOf = (charge: Charge) =>
    charge.amount_captured -
    charge.amount_refunded -
    [...transfers.values()]
      .filter((t) => t.source_transaction === charge.id)
      .reduce((sum, t) => sum + t.amount - t.amount_reversed, 0);

  function createTransfer(form: Record<string, string>, key?: string): Answer {
    const amount = Number(form.amount);
    if (!Number.isInteger(amount) || amount < 1) {
      return invalid(400, 'parameter_invalid_integer', 'Invalid positive integer', {
        param: 'amount',
      });
    }
    if (!form.currency) {
      return invalid(400, 'parameter_missing', 'Missing required param: currency.', {
        param: 'currency',
      });
    }
    const destination = accounts.get(form.destination ?? '');
    if (!destination) {
      return invalid(400, 'resource_missing', `No such destination: '${form.destination ?? ''}'`, {
        param: 'destination',
      });
    }
    if (destination.capabilities.transfers !== 'active') {
      return invalid(
        400,
        'insufficient_capabilities_for_transfer',
        'Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments',
        { param: 'destination' },
      );
    }
    // Only transfers funded by a charge: this double keeps no platform balance.
    const charge = charges.get(form.source_transaction ?? '');
    if (!charge) {
      return invalid(
        400,
        'resource_missing',
        `No such charge: '${form.source_transaction ?? ''}'`,
        { param: 'source_transaction' },
      );
    }
    if (!charge.captured || charge.currency !== form.currency) {
      return invalid(
        400,
        'invalid_source_transaction',
        `The source_transaction ${charge.id} cannot fund a transfer of ${form.currency}: it is ${charge.captured ? `in ${charge.currency}` : 'not captured'}.`,
        { param: 'source_transaction' },
      );
    }
    const left = transferableOf(charge);
    if (amount > left) {
      return invalid(
        400,
        'balance_insufficient',
        `Insufficient funds in source transaction ${charge.id}: ${left} ${charge.currency} can still be transferred from it.`,
        { param: 'amount' },
      );
    }
    const transfer: Transfer = {
      id: id('tr'),
      object: 'transfer',
      amount,
      amount_reversed: 0,
      currency: charge.currency,
      destination: destination.id,
      source_transaction: charge.id,
      transfer_group: form.transfer_group ?? null,
      reversed: false,
      reversals: { object: 'list', data: [], has_more: false, url: '' },
      metadata: metadataOf(form),
      created: now(),
    };
    transfer.reversals.url = `/v1/transfers/${transfer.id}/reversals`;
    transfers.set(transfer.id, transfer);
    emit('transfer.created', transfer, key);
    return { status: 200, body: transfer };
  }

  function reverseTransfer(transfer: Transfer, form: Record<string, string>, key?: string) {
    const left = transfer.amount - transfer.amount_reversed;
    if (left === 0) {
      return invalid(
        400,
        'transfer_already_reversed',
        `Transfer ${transfer.id} has already been fully reversed.`,
      );
    }
    const amount = form.amount === undefined ? left : Number(form.amount);
    if (!Number.isInteger(amount) || amount < 1 || amount > left) {
      return invalid(
        400,
        'amount_too_large',
        `Reversal amount (${amount}) is greater than the amount left on transfer ${transfer.id} (${left}).`,
        { param: 'amount' },
      );
    }
    const reversal: Reversal = {
      id: id('trr'),
      object: 'transfer_reversal',
      amount,
      currency: transfer.currency,
      transfer: transfer.id,
      created: now(),
    };
    transfer.reversals.data.unshift(reversal);
    transfer.amount_reversed += amount;
    transfer.reversed = transfer.amount_reversed === transfer.amount;
    emit('transfer.reversed', transfer, key);
    return { status: 200, body: reversal };
  }

  /** What an authenticated call does; `key` is its idempotency key when it has one. */
  function run(
    method: string,
    path: string,
    form: Record<string, string>,
    key: string | undefined,
  ): Answer {
    const expand = Object.entries(form)
      .filter(([k]) => k.startsWith('expand['))
      .map(([, v]) => v);
    const [, version, resource, objectId, action] = path.split('/');
    if (version !== 'v1') return invalid(404, 'resource_missing', 'Unrecognized request URL');
    if (resource === 'payment_intents' && method === 'POST' && !objectId) {
      return createIntent(form);
    }
    if (resource === 'payment_intents' && objectId) {
      const intent = intents.get(objectId);
      if (!intent) {
        return invalid(404, 'resource_missing', `No such payment_intent: '${objectId}'`);
      }
      if (method === 'GET' && !action) return { status: 200, body: view(intent, expand) };
      if (method === 'POST' && !action) {
        // Update: the amount while unpaid; metadata keys merge into what is there.
        if (form.amount !== undefined && !STEP_FROM.confirm.includes(intent.status)) {
          return invalid(
            400,
            'payment_intent_unexpected_state',
            `You cannot update the amount of a PaymentIntent with a status of ${intent.status}.`,
          );
        }
        if (form.amount !== undefined) intent.amount = Number(form.amount);
        for (const [k, v] of Object.entries(form)) {
          if (k.startsWith('metadata[')) intent.metadata[k.slice('metadata['.length, -1)] = v;
        }
        return { status: 200, body: view(intent, expand) };
      }
      const answer =
        method === 'POST' && action === 'confirm'
          ? confirm(intent, form, key)
          : method === 'POST' && action === 'capture'
            ? capture(intent, form, key)
            : method === 'POST' && action === 'cancel'
              ? cancel(intent, form, key)
              : undefined;
      if (answer) {
        return answer.status === 200 ? { ...answer, body: view(intent, expand) } : answer;
      }
    }
    if (resource === 'refunds' && method === 'POST' && !objectId) return refund(form, key);
    if (resource === 'accounts' && method === 'POST' && !objectId) return createAccount(form);
    if (resource === 'accounts' && method === 'GET' && objectId && !action) {
      const account = accounts.get(objectId);
      return account ? { status: 200, body: account } : noAccess(objectId);
    }
    if (resource === 'account_links' && method === 'POST' && !objectId) {
      return createAccountLink(form);
    }
    if (resource === 'transfers' && method === 'POST' && !objectId) {
      return createTransfer(form, key);
    }
    if (resource === 'transfers' && objectId) {
      const transfer = transfers.get(objectId);
      if (!transfer) return invalid(404, 'resource_missing', `No such transfer: '${objectId}'`);
      if (method === 'GET' && !action) return { status: 200, body: transfer };
      if (method === 'POST' && action === 'reversals') return reverseTransfer(transfer, form, key);
    }
    return invalid(404, 'resource_missing', 'Unrecognized request URL');
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://stripe.test');
    let text = '';
    for await (const chunk of req) text += chunk;
    const form = { ...formOf(url.search.slice(1)), ...formOf(text) };
    const header = req.headers['idempotency-key'];
    const key = typeof header === 'string' ? header : undefined;
    const method = req.method ?? '';
    const recorded: RecordedRequest = {
      method,
      path: url.pathname,
      form,
      idempotencyKey: key,
      status: 0,
      replayed: false,
    };
    requests.push(recorded);
    const send = (answer: Answer, headers: Record<string, string> = {}) => {
      recorded.status = answer.status;
      if (losingAnswers && url.pathname.startsWith(losingOn)) {
        recorded.status = 0;
        res.socket?.destroy();
        return;
      }
      res.writeHead(answer.status, {
        'content-type': 'application/json',
        'request-id': id('req'),
        ...(key ? { 'idempotency-key': key } : {}),
        ...headers,
      });
      res.end(JSON.stringify(answer.body));
    };

    if (req.headers.authorization !== `Bearer ${secretKey}`) {
      return send({
        status: 401,
        body: { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } },
      });
    }
    if (failing) {
      return send({
        status: 500,
        body: { error: { type: 'api_error', message: 'An unknown error occurred' } },
      });
    }
    // Idempotency applies to POSTs: a key's saved answer comes back for the same call.
    if (key && method === 'POST') {
      const signature = JSON.stringify([method, url.pathname, form]);
      const first = saved.get(key);
      if (first && first.signature !== signature) {
        return send({
          status: 400,
          body: {
            error: {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
            },
          },
        });
      }
      if (first) {
        recorded.replayed = true;
        return send(first, { 'idempotent-replayed': 'true', 'original-request': first.requestId });
      }
      const answer = run(method, url.pathname, form, key);
      // Saved once the endpoint began executing: a refused parameter or object is not.
      const code = (answer.body as { error?: { code?: string } }).error?.code ?? '';
      if (!NOT_EXECUTED.has(code)) saved.set(key, { ...answer, signature, requestId: id('req') });
      return send(answer);
    }
    return send(run(method, url.pathname, form, key));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'api_error', message: String(err) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  /** A call made with our secret key, as the dashboard or another integration could make it. */
  const post = async (path: string, form: Record<string, string> = {}) => {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${secretKey}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams(form),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const postOk = async (path: string, form: Record<string, string> = {}) => {
    const answer = await post(path, form);
    if (answer.status !== 200)
      throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  /** Stripe changing an account by itself (its review, the seller's onboarding): an event. */
  const changeAccount = (accountId: string, change: (account: ConnectAccount) => void) => {
    const account = accounts.get(accountId);
    if (!account) throw new Error(`no account ${accountId}`);
    change(account);
    emit('account.updated', account, undefined, account.id);
    return account;
  };
  const requirementsOf = (due: string[], disabledReason: string | null) => ({
    currently_due: due,
    eventually_due: due,
    past_due: due,
    pending_verification: [],
    disabled_reason: disabledReason,
  });
  return {
    url: `http://127.0.0.1:${port}`,
    intents,
    charges,
    accounts,
    transfers,
    /** The seller finishing onboarding on Stripe's pages: the account can receive transfers. */
    completeOnboarding: (accountId: string) =>
      changeAccount(accountId, (account) =>
        Object.assign(account, {
          details_submitted: true,
          payouts_enabled: true,
          capabilities: { ...account.capabilities, transfers: 'active' },
          requirements: requirementsOf([], null),
        }),
      ),
    /** Stripe's review disabling an account: it can no longer receive transfers or pay out. */
    restrictAccount: (accountId: string, reason = 'rejected.fraud') =>
      changeAccount(accountId, (account) =>
        Object.assign(account, {
          payouts_enabled: false,
          capabilities: { ...account.capabilities, transfers: 'inactive' },
          requirements: requirementsOf([], reason),
        }),
      ),
    /** The transfers carried to an account, oldest first. */
    transfersTo: (accountId: string) =>
      [...transfers.values()].filter((t) => t.destination === accountId),
    /** The transfers a charge funded, oldest first. */
    transfersFrom: (chargeId: string) =>
      [...transfers.values()].filter((t) => t.source_transaction === chargeId),
    requests,
    events,
    steps,
    setFailing: (value: boolean) => {
      failing = value;
    },
    /**
     * While on, Stripe does every call it gets, but the answers (to calls on paths that start
     * with `on`) are lost on the way back.
     */
    setLosingAnswers: (value: boolean, on = '/') => {
      losingAnswers = value;
      losingOn = on;
    },
    /** How many times Stripe ran `action` on the intent (replayed answers are not runs). */
    ran: (action: Step['action'], intentId: string) =>
      steps.filter((s) => s.action === action && s.intent === intentId).length,
    /** The events about an intent (its own, and its charge's), oldest first. */
    eventsOf: (intentId: string, type?: string) =>
      events.filter(
        (e) =>
          (e.data.object.id === intentId || e.data.object.payment_intent === intentId) &&
          (type === undefined || e.type === type),
      ),
    /** The event as Stripe posts it to the webhook endpoint: its bytes and their signature. */
    signed: (event: StripeEvent, secret = webhookSecret) => {
      const payload = JSON.stringify(event, null, 2);
      return { payload, signature: stripeSignature(payload, secret) };
    },
    /**
     * Stripe's update call made with our secret key, as the dashboard or another integration on
     * the same account could: `{ amount: '100' }`, `{ 'metadata[orderId]': '…' }`.
     */
    update: (intentId: string, form: Record<string, string>) =>
      postOk(`/v1/payment_intents/${intentId}`, form),
    /** A whole refund made with our secret key, as the dashboard's Refund button does. */
    refund: (intentId: string) => postOk('/v1/refunds', { payment_intent: intentId }),
    /** The dashboard's Capture button. */
    capture: (intentId: string) => post(`/v1/payment_intents/${intentId}/capture`),
    /** The dashboard's Cancel button. */
    cancel: (intentId: string) => post(`/v1/payment_intents/${intentId}/cancel`),
    /** Stripe cancelling an uncaptured intent itself when the card's authorisation runs out. */
    expireAuthorization(intentId: string) {
      const intent = intents.get(intentId);
      if (intent?.status !== 'requires_capture') throw new Error(`${intentId} holds no money`);
      cancelIntent(intent, 'expired');
    },
    /** A card payment taken in full (made, confirmed, captured): its intent's id. */
    async capturedIntent(amountCents: number) {
      const intent = await postOk('/v1/payment_intents', {
        amount: String(amountCents),
        currency: 'usd',
        capture_method: 'manual',
      });
      const intentId = intent.id as string;
      await postOk(`/v1/payment_intents/${intentId}/confirm`, { payment_method: 'pm_card_visa' });
      await postOk(`/v1/payment_intents/${intentId}/capture`);
      return intentId;
    },
    /** What Stripe.js does in the browser when the buyer presses Pay. */
    confirm: (intentId: string, paymentMethod = 'pm_card_visa') =>
      post(`/v1/payment_intents/${intentId}/confirm`, { payment_method: paymentMethod }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
