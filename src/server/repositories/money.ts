/** Money is stored in integer cents and travels as dollars. */
export const toCents = (dollars: number): number => Math.round(dollars * 100);
export const toDollars = (cents: number): number => cents / 100;
