const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * 'Nov 22, 2026' in the viewer's time zone, as `Intl.DateTimeFormat('en-US', { dateStyle:
 * 'medium' })` writes it, without its locale data: phone cards show dates, so every list of
 * phones would make the page's first `Intl` object while it starts.
 */
export function formatDate(iso: string): string {
  return mediumDate(new Date(iso));
}

const mediumDate = (date: Date) =>
  `${MONTHS[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()}`;

/**
 * 'Nov 22, 2026, 3:05 PM' in the viewer's time zone, as `Intl.DateTimeFormat('en-US', {
 * dateStyle: 'medium', timeStyle: 'short' })` writes it, without its locale data. Made with
 * `Intl`, its first use cost 70-84 ms at 4× CPU (a CPU profile of Send under Ask the seller: the
 * conversation's first render), and the same in the first open of the notifications' list.
 */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  const hours = date.getHours();
  const minutes = String(date.getMinutes()).padStart(2, '0');
  return `${mediumDate(date)}, ${hours % 12 || 12}:${minutes} ${hours < 12 ? 'AM' : 'PM'}`;
}

/** A rating summary as stars and count, '★ 4.5 (12)'; null when there is none yet. */
export const formatRating = ({ average, count }: { average: number | null; count: number }) =>
  average === null || count === 0 ? null : `★ ${average.toFixed(1)} (${count})`;

/** '1234567' → '1,234,567' */
const groupThousands = (digits: string): string => digits.replace(/\B(?=(\d{3})+$)/g, ',');

/** A count with thousands separators, as `toLocaleString('en-US')` writes it: 1,000. */
export const formatCount = (count: number): string =>
  `${count < 0 ? '-' : ''}${groupThousands(String(Math.abs(Math.trunc(count))))}`;

/**
 * Dollars with a dollar sign and thousands separators, cents only when there are any: $949,
 * $1,200, $12.50 (what `Intl.NumberFormat('en-US')` writes, up to three decimals, without its
 * locale data: every phone card shows a price, so this runs on every page).
 */
export function formatDollars(amount: number): string {
  const sign = amount < 0 ? '-' : '';
  const size = Math.abs(amount);
  if (Number.isInteger(size)) return `$${sign}${groupThousands(String(size))}`;
  const [whole = '0', fraction = ''] = size.toFixed(3).split('.');
  return `$${sign}${groupThousands(whole)}.${fraction.replace(/0$/, '')}`;
}

/**
 * An amount of money to the cent, as a statement writes it: $1,140.00, -$12.50 (what
 * `Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' })` writes). Fees, nets and
 * payouts use it, where $1,140 beside $1,139.95 would read oddly.
 */
export function formatMoney(amount: number): string {
  const cents = Math.round(Math.abs(amount) * 100);
  const sign = amount < 0 && cents > 0 ? '-' : '';
  const whole = groupThousands(String(Math.floor(cents / 100)));
  return `${sign}$${whole}.${String(cents % 100).padStart(2, '0')}`;
}

/** The API's storage value '1 GTB' reads '1 TB'. */
export const storageLabel = (storage: string): string => (storage === '1 GTB' ? '1 TB' : storage);
