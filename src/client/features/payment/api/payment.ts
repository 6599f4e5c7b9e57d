import { type Answer, ApiError, apiGet, apiRequest } from '@client/lib/api-client';
import { apiPath, callRoutes } from '@shared/call-routes';
import { queryOptions } from '@tanstack/react-query';

export const paymentOrderQueryOptions = (orderId: string) =>
  queryOptions({
    queryKey: ['payment', orderId],
    queryFn: () =>
      apiGet<Answer<'paymentOrder'>>(apiPath(callRoutes.paymentOrder.path, { id: orderId })),
  });

export const createPaymentIntent = async (orderId: string, price: number) =>
  (
    await apiRequest<Answer<'createPaymentIntent'>>(apiPath(callRoutes.createPaymentIntent.path), {
      method: 'POST',
      body: { orderId, price },
    })
  ).data;

export const recordPayment = async (transactionId: string, orderId: string) =>
  (
    await apiRequest<Answer<'recordPayment'>>(apiPath(callRoutes.recordPayment.path), {
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
  const response = await fetch(apiPath(callRoutes.confirmTestPayment.path), {
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
  return (body as Answer<'confirmTestPayment'>).paymentIntent;
}
