const mediumDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

/** 'Nov 22, 2026' */
export const formatDate = (iso: string): string => mediumDate.format(new Date(iso));

/** Dollars with a dollar sign, cents only when there are any: $949, $12.50. */
export const formatDollars = (amount: number): string =>
  `$${Number.isInteger(amount) ? amount : amount.toFixed(2)}`;

/** The API's storage value '1 GTB' reads '1 TB'. */
export const storageLabel = (storage: string): string => (storage === '1 GTB' ? '1 TB' : storage);
