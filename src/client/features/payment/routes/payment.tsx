import { DashboardPage } from '@client/components/layout/dashboard-page';
import { ApiError } from '@client/lib/api-client';
import { useAuth } from '@client/lib/auth/use-auth';
import { TEXT } from '@shared/texts';
import {
  type QueryClient,
  useQuery,
  useQueryClient,
  useSuspenseQuery,
} from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { type LoaderFunctionArgs, useParams } from 'react-router';
import {
  confirmCardPayment,
  createPaymentIntent,
  paymentOrderQueryOptions,
  recordPayment,
} from '../api/payment';
import { CardField, type CardState, cardIncomplete } from '../components/card-field';

/** The order loads from the payment call before the page shows. */
export const paymentLoader =
  (queryClient: QueryClient) =>
  async ({ params }: LoaderFunctionArgs) => {
    await queryClient.ensureQueryData(paymentOrderQueryOptions(params.id ?? ''));
    return null;
  };

/** The payment page (spec section 4): secret on load, Pay when ready, errors in red, the record. */
export function PaymentRoute() {
  const { id = '' } = useParams();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const { data: order } = useSuspenseQuery(paymentOrderQueryOptions(id));
  const secret = useQuery({
    queryKey: ['payment', id, 'intent'],
    queryFn: () => createPaymentIntent(order._id, order.price),
    enabled: order.status !== 'paid',
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  const [card, setCard] = useState<CardState>({ number: '', expiry: '', cvc: '' });
  const [error, setError] = useState<string | null>(null);
  const [paying, setPaying] = useState(false);
  const [transactionId, setTransactionId] = useState<string | null>(null);

  const pay = async (event: FormEvent) => {
    event.preventDefault();
    const clientSecret = secret.data?.clientSecret;
    if (!clientSecret || paying) return;
    const incomplete = cardIncomplete(card);
    if (incomplete) return setError(incomplete);
    setError(null);
    setPaying(true);
    try {
      const [month, year] = card.expiry.split('/').map((p) => Number(p.trim()));
      const intent = await confirmCardPayment(
        clientSecret,
        { number: card.number, expMonth: month ?? 0, expYear: 2000 + (year ?? 0), cvc: card.cvc },
        { name: user?.displayName ?? order.userName, email: user?.email ?? order.email },
      );
      const { insertedId } = await recordPayment(intent.id, order._id);
      if (insertedId) setTransactionId(intent.id);
      await queryClient.invalidateQueries({ queryKey: ['orders'] });
    } catch (e) {
      setError(e instanceof ApiError ? e.message : 'The payment failed.');
    } finally {
      setPaying(false);
    }
  };

  return (
    <DashboardPage title={TEXT.dashboard.pay}>
      <p className="text-lg">{TEXT.payment.prompt(order.price, order.productName)}</p>
      {transactionId ? (
        <div role="status" className="alert alert-success flex-col items-start">
          <p className="font-bold">{TEXT.payment.congrats}</p>
          <p>
            Transaction id: <code>{transactionId}</code>
          </p>
        </div>
      ) : order.status === 'paid' ? (
        <p className="badge badge-success">{TEXT.dashboard.paid}</p>
      ) : (
        <form onSubmit={pay} className="max-w-md space-y-3">
          <CardField value={card} onChange={setCard} disabled={paying} />
          {(error ?? (secret.error instanceof ApiError ? secret.error.message : null)) && (
            <p role="alert" className="text-error">
              {error ?? (secret.error as ApiError).message}
            </p>
          )}
          <button type="submit" className="btn btn-primary" disabled={!secret.data || paying}>
            {paying && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
            {TEXT.payment.pay}
          </button>
        </form>
      )}
    </DashboardPage>
  );
}
