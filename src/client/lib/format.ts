const mediumDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

/** 'Nov 22, 2026' */
export const formatDate = (iso: string): string => mediumDate.format(new Date(iso));

const dateAndTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** 'Nov 22, 2026, 3:05 PM' (in the viewer's time zone) */
export const formatDateTime = (iso: string): string => dateAndTime.format(new Date(iso));

/** A rating summary as stars and count, '★ 4.5 (12)'; null when there is none yet. */
export const formatRating = ({ average, count }: { average: number | null; count: number }) =>
  average === null || count === 0 ? null : `★ ${average.toFixed(1)} (${count})`;

const wholeDollars = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const dollarsAndCents = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2 });

/** Dollars with a dollar sign and thousands separators, cents only when there are any: $949, $1,200, $12.50. */
export const formatDollars = (amount: number): string =>
  `$${(Number.isInteger(amount) ? wholeDollars : dollarsAndCents).format(amount)}`;

/** The API's storage value '1 GTB' reads '1 TB'. */
export const storageLabel = (storage: string): string => (storage === '1 GTB' ? '1 TB' : storage);
