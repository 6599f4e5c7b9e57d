/**
 * The marketplace's fee on a completed sale (issue 30, decision 041): a percentage of the price,
 * rounded half up to the cent, at least a minimum, never more than the price. One function for
 * the server (what the ledger takes) and the pages (what a seller is told before listing), so
 * the figure a seller reads is the figure they are paid.
 */
export type FeeRule = {
  /** Percent of the price, two decimals at most (5 = 5 %, 2.75 = 2.75 %). */
  percent: number;
  /** The least fee, in cents (0: none). */
  minCents: number;
};

export const DEFAULT_FEE_RULE: FeeRule = { percent: 5, minCents: 0 };

/** The fee on a sale at `priceCents`: percent of it rounded half up to the cent, within [min, price]. */
export function feeCents(priceCents: number, rule: FeeRule): number {
  // In basis points and integers: 5 % of $19.99 is 99.95 cents, which rounds up to $1.00.
  const basisPoints = Math.round(rule.percent * 100);
  const share = Math.floor((priceCents * basisPoints + 5000) / 10000);
  return Math.min(priceCents, Math.max(share, rule.minCents));
}

/** What the seller receives of a sale at `priceCents`. */
export const netCents = (priceCents: number, rule: FeeRule): number =>
  priceCents - feeCents(priceCents, rule);

/** '5%' or '2.75%', as the pages name the fee. */
export const percentText = (rule: FeeRule): string =>
  `${Number(rule.percent.toFixed(2)).toString()}%`;
