import { ApiError, apiGet, apiRequest } from '@client/lib/api-client';
import { apiPath, calls } from '@shared/api';
import { queryOptions } from '@tanstack/react-query';

export const paymentOrderQueryOptions = (orderId: string) =>
  queryOptions({
    queryKey: ['payment', orderId],
    queryFn: () =>
      apiGet(apiPath(calls.paymentOrder.path, { id: orderId }), calls.paymentOrder.response),
  });

export const createPaymentIntent = async (orderId: string, price: number) =>
  (
    await apiRequest(apiPath(calls.createPaymentIntent.path), calls.createPaymentIntent.response, {
      method: 'POST',
      body: { orderId, price },
    })
  ).data;

export const recordPayment = async (transactionId: string, orderId: string) =>
  (
    await apiRequest(apiPath(calls.recordPayment.path), calls.recordPayment.response, {
      method: 'POST',
      body: { transactionId, orderId },
    })
  ).data;

export type TestCard = { number: string; expMonth: number; expYear: number; cvc: string };

/** The embedded processor's card confirmation; answers the intent, or throws the card error's message. */
export async function confirmTestPayment(
  clientSecret: string,
  card: TestCard,
  billingDetails: { name: string; email: string },
): Promise<{ id: string; status: string }> {
  const response = await fetch(apiPath(calls.confirmTestPayment.path), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clientSecret, card, billingDetails }),
  }).catch(() => {
    throw new ApiError(0, 'Network Error');
  });
  const body = await response.json().catch(() => null);
  if (!response.ok)
    throw new ApiError(
      response.status,
      body?.error?.message ?? body?.message ?? 'The payment failed.',
    );
  return calls.confirmTestPayment.response.parse(body).paymentIntent;
}
