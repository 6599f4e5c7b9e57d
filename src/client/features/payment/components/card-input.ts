/** What the payment page needs of a card service's field, whichever service it is. */
export type BillingDetails = { name: string; email: string };

/** The card service's own words on why a card cannot pay ('Your card was declined.'). */
export class CardError extends Error {}

/** Charges the card for the intent; throws a CardError (or the API's error) when it cannot. */
export type ConfirmCard = (
  clientSecret: string,
  billing: BillingDetails,
) => Promise<{ id: string }>;

export type CardInputProps = {
  disabled: boolean;
  /** Called with the confirmation once the field is ready, and with null when it goes away. */
  onReady: (confirm: ConfirmCard | null) => void;
};
