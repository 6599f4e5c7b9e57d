/** Money is stored in integer cents and travels as dollars. */
export const toCents = (dollars: number): number => Math.round(dollars * 100);
export const toDollars = (cents: number): number => cents / 100;

/** '$1,200' or '$12.50', as the pages print prices. */
export const dollars = (cents: number) =>
  `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: cents % 100 ? 2 : 0, maximumFractionDigits: 2 })}`;

/** A phone as notices, reports and the review queue name it: 'iPhone 13 (128 GB, Good)'. */
export const phoneName = (p: { modelName: string; storage: string; condition: string }) =>
  `${p.modelName} (${p.storage === '1 GTB' ? '1 TB' : p.storage}, ${p.condition})`;
