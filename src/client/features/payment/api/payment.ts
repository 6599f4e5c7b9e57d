import { type CallInput, call } from '@client/lib/api-client';
import { queryRoots } from '@client/lib/query-keys';
import { useRefreshingMutation } from '@client/lib/use-refreshing-mutation';
import type { Order } from '@shared/entities';
import { queryOptions } from '@tanstack/react-query';

export const paymentOrderQueryOptions = (orderId: string) =>
  queryOptions({
    queryKey: [...queryRoots.payment, orderId],
    queryFn: () => call('paymentOrder', { params: { id: orderId } }),
  });

/** The card service's secret for paying the order; asked for once, and not again on a failure. */
export const paymentIntentQueryOptions = (order: Order) =>
  queryOptions({
    queryKey: [...queryRoots.paymentIntent, order._id],
    queryFn: () =>
      call('createPaymentIntent', { body: { orderId: order._id, price: order.price } }),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });

type Payment = { transactionId: string; orderId: string };

export const recordPayment = (payment: Payment) => call('recordPayment', { body: payment });

/** Records a payment; the buyer's orders and the order's page then show it paid. */
export const useRecordPayment = () =>
  useRefreshingMutation(recordPayment, () => [queryRoots.orders, queryRoots.sales]);

type ConfirmTestPayment = CallInput<'confirmTestPayment'>['body'];
export type TestCard = ConfirmTestPayment['card'];

/** The embedded processor's card confirmation; answers the intent, or throws the card error's message. */
export const confirmTestPayment = async (
  clientSecret: string,
  card: TestCard,
  billingDetails: ConfirmTestPayment['billingDetails'],
) =>
  (await call('confirmTestPayment', { body: { clientSecret, card, billingDetails } }))
    .paymentIntent;
