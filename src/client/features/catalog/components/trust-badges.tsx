/**
 * What tells a buyer a listing can be trusted (issue 19): the "IMEI checked" badge and the note
 * on its price. Plain markup, no script of their own: they are on every card of the public pages.
 */
import type { Product } from '@shared/entities';
import { CATALOG_TEXT } from '../texts';

/** Beside the verified badge, in its style: the phone's IMEI passed our checks (decision 024). */
export function ImeiCheckedBadge() {
  return (
    <span className="badge badge-success badge-sm gap-1" title={CATALOG_TEXT.imeiCheckedMeaning}>
      <svg aria-hidden="true" viewBox="0 0 20 20" className="h-3 w-3 fill-current">
        <path d="M10 1.5 3 4.2v5.1c0 4.2 3 7.9 7 9.2 4-1.3 7-5 7-9.2V4.2zm-1.2 12L5.3 10l1.4-1.4 2.1 2.1 4.5-4.5 1.4 1.4z" />
      </svg>
      {CATALOG_TEXT.imeiChecked}
      <span className="sr-only">: {CATALOG_TEXT.imeiCheckedMeaning}</span>
    </span>
  );
}

/** "Good price" or "High price" against comparable sales, with what it means; nothing without one. */
export function PriceNote({ note }: { note: Product['priceNote'] }) {
  if (!note) return null;
  const { label, meaning } = CATALOG_TEXT.priceNote[note];
  return (
    <span
      className={`badge badge-sm self-center ${note === 'good' ? 'badge-success' : 'badge-warning'}`}
      title={meaning}
    >
      {label}
      <span className="sr-only">: {meaning}</span>
    </span>
  );
}
