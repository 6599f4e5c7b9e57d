import { RatingSummary } from '@client/components/ui/rating-summary';
import type { Sale } from '@shared/entities';
import { SALE_TEXT } from '../texts';

type Party = Sale['buyer'];

/** A phone number to call from a phone. */
export function PhoneNumber({ number }: { number: string }) {
  return (
    <a href={`tel:${number.replace(/[^\d+]/g, '')}`} className="link">
      {number}
    </a>
  );
}

/** One side of the sale: name, rating, and the number and e-mail once they are shared. */
export function PartyDetails({ title, party }: { title: 'buyer' | 'seller'; party: Party }) {
  const headingId = `party-${title}`;
  return (
    <section aria-labelledby={headingId} className="rounded-box bg-base-200 p-4">
      <h2 id={headingId} className="mb-2 text-lg font-semibold">
        {title === 'buyer' ? SALE_TEXT.buyer : SALE_TEXT.seller}
      </h2>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="font-semibold">{SALE_TEXT.name}</dt>
        <dd>{party.name}</dd>
        <dt className="font-semibold">{SALE_TEXT.rating}</dt>
        <dd>
          <RatingSummary rating={party.rating} />
        </dd>
        <dt className="font-semibold">{SALE_TEXT.number}</dt>
        <dd>
          {party.number ? <PhoneNumber number={party.number} /> : SALE_TEXT.numberAfterPayment}
        </dd>
        {party.email && (
          <>
            <dt className="font-semibold">{SALE_TEXT.email}</dt>
            <dd className="break-all">{party.email}</dd>
          </>
        )}
      </dl>
    </section>
  );
}
