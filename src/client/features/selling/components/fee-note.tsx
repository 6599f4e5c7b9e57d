import { useFeeRule } from '@client/lib/client-config';
import { formatMoney } from '@client/lib/format';
import { type FeeRule, feeCents, percentText } from '@shared/fees';
import { readDollars } from '@shared/listing-input';
import type { UseFormReturn } from 'react-hook-form';
import { SELLING_TEXT } from '../texts';
import type { ProductFormValues } from './product-form';

/**
 * "You receive $1,140.00 after the 5% fee": the seller's share of the resale price as they type
 * it, by the rule the server takes the fee by (@shared/fees), so the figure is the one paid.
 * When the minimum fee is the larger, it is named instead of the percent.
 */
export function feeNote(priceCents: number, rule: FeeRule): string {
  const fee = feeCents(priceCents, rule);
  const byPercent = feeCents(priceCents, { ...rule, minCents: 0 }) >= rule.minCents;
  const feeName = byPercent
    ? percentText(rule)
    : SELLING_TEXT.minimumFee(formatMoney(rule.minCents / 100));
  return SELLING_TEXT.youReceive(formatMoney((priceCents - fee) / 100), feeName);
}

/** The note under the resale price; nothing until the price can be read and the rule is known. */
export function FeeNote({ form }: { form: UseFormReturn<ProductFormValues> }) {
  const rule = useFeeRule();
  const price = readDollars('resellPrice', form.watch('resellPrice') ?? '');
  const text = rule && price.ok ? feeNote(Math.round(price.value * 100), rule) : '';
  // Told politely as it changes: the seller hears the amount once they pause typing.
  return (
    <p aria-live="polite" className="mt-1 text-sm font-medium">
      {text}
    </p>
  );
}
