import type { StripeCardElement } from '@stripe/stripe-js';
import { useEffect, useRef, useState } from 'react';
import { CardError, type CardInputProps } from './card-input';

const LOAD_FAILED = 'The card service could not be reached. Please reload the page.';

/**
 * Stripe Elements' card field: Stripe.js loads only on this page, the card details stay in
 * Stripe's frame, and the payment is confirmed with the buyer's name and e-mail.
 */
export function StripeCardInput({
  publishableKey,
  disabled,
  onReady,
}: CardInputProps & { publishableKey: string }) {
  const mountPoint = useRef<HTMLDivElement>(null);
  const element = useRef<StripeCardElement | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let gone = false;
    (async () => {
      const { loadStripe } = await import('@stripe/stripe-js/pure');
      const stripe = await loadStripe(publishableKey);
      if (gone || !mountPoint.current) return;
      if (!stripe) return setError(LOAD_FAILED);
      const card = stripe.elements().create('card', { hidePostalCode: true });
      element.current = card;
      card.on('change', (event) => setError(event.error?.message ?? null));
      card.on('ready', () =>
        onReady(async (clientSecret, billing) => {
          const result = await stripe.confirmCardPayment(clientSecret, {
            payment_method: { card, billing_details: billing },
          });
          if (result.error) throw new CardError(result.error.message ?? 'The payment failed.');
          return { id: result.paymentIntent.id };
        }),
      );
      card.mount(mountPoint.current);
    })().catch(() => {
      if (!gone) setError(LOAD_FAILED);
    });
    return () => {
      gone = true;
      element.current?.destroy();
      element.current = null;
      onReady(null);
    };
  }, [publishableKey, onReady]);

  useEffect(() => {
    element.current?.update({ disabled });
  }, [disabled]);

  return (
    <fieldset className="fieldset">
      <legend className="fieldset-legend">Card</legend>
      <div
        ref={mountPoint}
        data-testid="stripe-card"
        className="min-h-11 rounded-field border border-base-300 bg-base-100 p-3"
      />
      {error && (
        <p role="alert" className="text-error">
          {error}
        </p>
      )}
    </fieldset>
  );
}
