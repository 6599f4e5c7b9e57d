import { useId } from 'react';

export type CardState = { number: string; expiry: string; cvc: string };

const digits = (v: string) => v.replace(/\D/g, '');

/** What is missing from the card, in the card provider's words, or null when it is complete. */
export function cardIncomplete(card: CardState): string | null {
  if (digits(card.number).length < 13) return 'Your card number is incomplete.';
  if (!/^\d{2}\s*\/\s*\d{2}$/.test(card.expiry))
    return "Your card's expiration date is incomplete.";
  if (digits(card.cvc).length < 3) return "Your card's security code is incomplete.";
  return null;
}

/** Number, expiry and CVC in one line, like the card provider's card element. */
export function CardField({
  value,
  onChange,
  disabled,
}: {
  value: CardState;
  onChange: (v: CardState) => void;
  disabled: boolean;
}) {
  const id = useId();
  const groups = (v: string) =>
    digits(v)
      .slice(0, 19)
      .replace(/(\d{4})(?=\d)/g, '$1 ');
  const expiry = (v: string) => {
    const d = digits(v).slice(0, 4);
    return d.length > 2 ? `${d.slice(0, 2)} / ${d.slice(2)}` : d;
  };
  return (
    <fieldset className="fieldset">
      <legend className="fieldset-legend">Card</legend>
      <div className="flex gap-2 rounded-field border border-base-300 bg-base-100 p-2">
        <label htmlFor={`${id}-number`} className="sr-only">
          Card number
        </label>
        <input
          id={`${id}-number`}
          className="min-w-0 flex-1 bg-transparent outline-none"
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="Card number"
          value={value.number}
          disabled={disabled}
          onChange={(e) => onChange({ ...value, number: groups(e.target.value) })}
        />
        <label htmlFor={`${id}-expiry`} className="sr-only">
          Expiration date
        </label>
        <input
          id={`${id}-expiry`}
          className="w-20 bg-transparent outline-none"
          inputMode="numeric"
          autoComplete="cc-exp"
          placeholder="MM / YY"
          value={value.expiry}
          disabled={disabled}
          onChange={(e) => onChange({ ...value, expiry: expiry(e.target.value) })}
        />
        <label htmlFor={`${id}-cvc`} className="sr-only">
          CVC
        </label>
        <input
          id={`${id}-cvc`}
          className="w-14 bg-transparent outline-none"
          inputMode="numeric"
          autoComplete="cc-csc"
          placeholder="CVC"
          value={value.cvc}
          disabled={disabled}
          onChange={(e) => onChange({ ...value, cvc: digits(e.target.value).slice(0, 4) })}
        />
      </div>
    </fieldset>
  );
}
