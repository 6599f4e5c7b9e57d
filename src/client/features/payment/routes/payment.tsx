import { DashboardPage } from '@client/components/layout/dashboard-page';
import { StageBadge } from '@client/components/ui/stage-badge';
import { ApiError } from '@client/lib/api-client';
import { useAuth } from '@client/lib/auth/use-auth';
import { clientConfigQueryOptions } from '@client/lib/client-config';
import { ensureCurrent } from '@client/lib/ensure-current';
import { isPaidStage } from '@shared/order-process';
import { TEXT } from '@shared/texts';
import { type QueryClient, useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { type FormEvent, useCallback, useState } from 'react';
import { data, Link, type LoaderFunctionArgs, useParams } from 'react-router';
import {
  paymentIntentQueryOptions,
  paymentOrderQueryOptions,
  useRecordPayment,
} from '../api/payment';
import { CardError, type ConfirmCard } from '../components/card-input';
import { EmbeddedCardInput } from '../components/embedded-card-input';
import { StripeCardInput } from '../components/stripe-card-input';
import { PAYMENT_TEXT } from '../texts';

/**
 * The order (and which card service to use) load before the page shows. An order that does not
 * exist, or is not the buyer's, is the 404 page: the server answers 404, 403, or 400 for an id
 * that cannot be one.
 */
export const paymentLoader =
  (queryClient: QueryClient) =>
  async ({ params }: LoaderFunctionArgs) => {
    try {
      await Promise.all([
        ensureCurrent(queryClient, paymentOrderQueryOptions(params.id ?? '')),
        ensureCurrent(queryClient, clientConfigQueryOptions()),
      ]);
    } catch (error) {
      if (error instanceof ApiError && [400, 403, 404].includes(error.status))
        throw data(null, { status: 404 });
      throw error;
    }
    return null;
  };

/** What the buyer does next, once the order is paid: the money waits for the handover. */
function NextStep({ orderId, location }: { orderId: string; location: string }) {
  return (
    <>
      <p>{PAYMENT_TEXT.nextStep(location)}</p>
      <p>{PAYMENT_TEXT.held}</p>
      <OrderLinks orderId={orderId} />
    </>
  );
}

function OrderLinks({ orderId }: { orderId: string }) {
  return (
    <div className="flex flex-wrap gap-2">
      <Link to={`/dashboard/orders/${orderId}`} className="btn btn-primary btn-sm">
        {PAYMENT_TEXT.seeOrder}
      </Link>
      <Link to="/dashboard/myorders" className="btn btn-outline btn-sm">
        {PAYMENT_TEXT.myOrders}
      </Link>
    </div>
  );
}

/** The embedded processor takes Stripe's test cards; say which, as Stripe's own test pages do. */
function TestCards() {
  return (
    <div className="rounded-box border border-info/40 bg-info/10 p-3 text-sm">
      <p className="font-semibold">{PAYMENT_TEXT.testMode}</p>
      <p>{PAYMENT_TEXT.testCards}</p>
    </div>
  );
}

/** The payment page (spec section 4): secret on load, Pay when ready, errors in red, the record. */
export function PaymentRoute() {
  const { id = '' } = useParams();
  const { user } = useAuth();
  const { data: order } = useSuspenseQuery(paymentOrderQueryOptions(id));
  const { data: config } = useSuspenseQuery(clientConfigQueryOptions());
  const secret = useQuery({
    ...paymentIntentQueryOptions(order),
    enabled: order.status !== 'paid',
  });
  const record = useRecordPayment();
  const [confirm, setConfirm] = useState<ConfirmCard | null>(null);
  // A function in state must be wrapped, or React would call it as an updater.
  const onCardReady = useCallback((c: ConfirmCard | null) => setConfirm(() => c), []);
  const [error, setError] = useState<string | null>(null);
  const [paying, setPaying] = useState(false);
  const [transactionId, setTransactionId] = useState<string | null>(null);

  const pay = async (event: FormEvent) => {
    event.preventDefault();
    const clientSecret = secret.data?.clientSecret;
    if (!clientSecret || !confirm || paying) return;
    setError(null);
    setPaying(true);
    try {
      const intent = await confirm(clientSecret, {
        name: user?.displayName ?? order.userName,
        email: user?.email ?? order.email,
      });
      const { insertedId } = await record.mutateAsync({
        transactionId: intent.id,
        orderId: order._id,
      });
      if (insertedId) setTransactionId(intent.id);
    } catch (e) {
      setError(e instanceof ApiError || e instanceof CardError ? e.message : 'The payment failed.');
    } finally {
      setPaying(false);
    }
  };

  // The embedded processor, and Stripe with test keys, take Stripe's test cards.
  const testMode =
    config.payments.provider === 'embedded' ||
    (config.payments.publishableKey?.startsWith('pk_test_') ?? false);
  const failure = error ?? (secret.error instanceof ApiError ? secret.error.message : null);

  return (
    <DashboardPage title={TEXT.dashboard.pay}>
      {transactionId ? (
        <div
          role="status"
          className="rounded-box border border-success bg-success/10 space-y-3 p-4"
        >
          <p className="font-bold">{TEXT.payment.congrats}</p>
          <p>
            Transaction id: <code className="break-all">{transactionId}</code>
          </p>
          <NextStep orderId={order._id} location={order.location} />
        </div>
      ) : order.stage === 'paid' ? (
        <div className="space-y-3">
          <p className="text-lg">
            <StageBadge stage={order.stage}>{TEXT.dashboard.paid}</StageBadge>{' '}
            {PAYMENT_TEXT.paid(order.productName)}
          </p>
          <NextStep orderId={order._id} location={order.location} />
        </div>
      ) : order.stage !== 'booked' ? (
        // Past the payment: the sale's stage says where it is, so a cancelled one is not "paid".
        <div className="space-y-3">
          <p className="text-lg">
            <StageBadge stage={order.stage}>
              {isPaidStage(order.stage) ? TEXT.dashboard.paid : PAYMENT_TEXT.stage[order.stage]}
            </StageBadge>{' '}
            {PAYMENT_TEXT.after[order.stage](order.productName)}
          </p>
          <OrderLinks orderId={order._id} />
        </div>
      ) : (
        <>
          <p className="text-lg">{TEXT.payment.prompt(order.price, order.productName)}</p>
          <form onSubmit={pay} className="max-w-md space-y-3">
            {testMode && <TestCards />}
            {config.payments.provider === 'stripe' && config.payments.publishableKey ? (
              <StripeCardInput
                publishableKey={config.payments.publishableKey}
                disabled={paying}
                onReady={onCardReady}
              />
            ) : (
              <EmbeddedCardInput disabled={paying} onReady={onCardReady} />
            )}
            {failure && (
              <p role="alert" className="text-error">
                {failure}
              </p>
            )}
            <button
              type="submit"
              className="btn btn-primary"
              disabled={!secret.data || !confirm || paying}
            >
              {paying && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
              {TEXT.payment.pay}
            </button>
          </form>
        </>
      )}
    </DashboardPage>
  );
}
