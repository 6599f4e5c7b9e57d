import type { Sale } from '@shared/entities';
import { type FeeRule, feeCents } from '@shared/fees';

/** The stages in which the handover may still come: the fee is the one the rule would take. */
const BEFORE_HANDOVER: readonly Sale['stage'][] = ['booked', 'paid'];

/**
 * A sale's fee and the seller's share (issue 30): fixed at the handover (the sale's own), or,
 * before it, what the fee rule would take of the price (`expected`). Null when there is none:
 * the buyer's view, a sale that ended before a handover, or the rule not loaded yet.
 */
export function saleMoney(
  sale: Pick<Sale, 'price' | 'stage' | 'fee' | 'net' | 'side'>,
  rule: FeeRule | undefined,
): { fee: number; net: number; expected: boolean } | null {
  if (sale.side === 'buyer') return null;
  if (sale.fee !== null && sale.net !== null)
    return { fee: sale.fee, net: sale.net, expected: false };
  if (!rule || !BEFORE_HANDOVER.includes(sale.stage)) return null;
  const priceCents = Math.round(sale.price * 100);
  const fee = feeCents(priceCents, rule);
  return { fee: fee / 100, net: (priceCents - fee) / 100, expected: true };
}
