import { CATEGORY_CODES, CONDITION_OPTIONS, RAM_OPTIONS, STORAGE_OPTIONS } from '@shared/constants';
import { readBattery, readBatteryHealth, readDollars } from '@shared/listing-input';
import { useQuery } from '@tanstack/react-query';
import type { UseFormReturn } from 'react-hook-form';
import { type WaitingBuyersQuestion, waitingBuyersQueryOptions } from '../api/waiting-buyers';
import { WAITING_BUYERS_TEXT } from '../texts';
import { useDebounced } from '../use-debounced';
import type { ProductFormValues } from './product-form';

/** How long the form must rest before the count is asked. */
export const WAITING_DEBOUNCE_MS = 500;

const oneOf = <T extends string>(options: readonly T[], value: string | undefined) =>
  options.find((o) => o === value);

/**
 * The question once the brand, RAM, storage, condition and price can be read; null before. What
 * else is typed and readable (model, description, battery, place) narrows it as a search would.
 */
export function waitingBuyersQuestion(
  v: Partial<ProductFormValues>,
  productId?: string,
): WaitingBuyersQuestion | null {
  const categoryId = oneOf(CATEGORY_CODES, v.categoryId);
  const ram = oneOf(RAM_OPTIONS, v.ram);
  const storage = oneOf(STORAGE_OPTIONS, v.storage);
  const condition = oneOf(CONDITION_OPTIONS, v.condition);
  const price = readDollars('resellPrice', v.resellPrice ?? '');
  if (!categoryId || !ram || !storage || !condition || !price.ok) return null;
  const battery = readBattery(v.battery ?? '');
  const health = readBatteryHealth(v.batteryHealth ?? '');
  const text = (typed: string | undefined) => typed?.trim() || undefined;
  const question: WaitingBuyersQuestion = {
    categoryId,
    ram,
    storage,
    condition,
    price: price.value,
    modelName: text(v.modelName),
    description: text(v.description),
    location: text(v.location),
    battery: battery.ok ? battery.value : undefined,
    batteryHealth: health.ok && health.value !== null ? health.value : undefined,
    productId,
  };
  return Object.fromEntries(
    Object.entries(question).filter(([, value]) => value !== undefined),
  ) as WaitingBuyersQuestion;
}

/**
 * "12 buyers are looking for a phone like this" under the resale price (issue 33), asked a moment
 * after the seller stops typing. It never holds the form up: while it loads, or if the call
 * fails, the line is empty.
 */
export function WaitingBuyers({
  form,
  productId,
}: {
  form: UseFormReturn<ProductFormValues>;
  /** The listing being edited. */
  productId?: string;
}) {
  const values = form.watch();
  const asked = waitingBuyersQuestion(values, productId);
  // Compared as text: the form gives a new object each render.
  const settled = useDebounced(asked && JSON.stringify(asked), WAITING_DEBOUNCE_MS);
  const question = settled === null ? null : (JSON.parse(settled) as WaitingBuyersQuestion);
  const waiting = useQuery({
    ...waitingBuyersQueryOptions(question ?? ({} as WaitingBuyersQuestion)),
    enabled: question !== null && asked !== null,
  });
  const buyers = asked && question ? waiting.data?.buyers : undefined;
  return (
    <p aria-live="polite" className={`mt-1 text-sm ${buyers ? 'font-medium' : 'text-current/70'}`}>
      {buyers === undefined
        ? ''
        : buyers > 0
          ? WAITING_BUYERS_TEXT.buyers(buyers)
          : WAITING_BUYERS_TEXT.none}
    </p>
  );
}
