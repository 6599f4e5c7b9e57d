import { useEffect, useState } from 'react';
import { confirmTestPayment } from '../api/payment';
import { CardField, type CardState, cardIncomplete } from './card-field';
import { CardError, type CardInputProps } from './card-input';

/** The embedded test-mode processor's card field: ready at once, confirmed through our server. */
export function EmbeddedCardInput({ disabled, onReady }: CardInputProps) {
  const [card, setCard] = useState<CardState>({ number: '', expiry: '', cvc: '' });
  useEffect(() => {
    onReady(async (clientSecret, billing) => {
      const incomplete = cardIncomplete(card);
      if (incomplete) throw new CardError(incomplete);
      const [month, year] = card.expiry.split('/').map((p) => Number(p.trim()));
      return confirmTestPayment(
        clientSecret,
        { number: card.number, expMonth: month ?? 0, expYear: 2000 + (year ?? 0), cvc: card.cvc },
        billing,
      );
    });
  }, [card, onReady]);
  useEffect(() => () => onReady(null), [onReady]);
  return <CardField value={card} onChange={setCard} disabled={disabled} />;
}
