/** A phone's price and particulars as the spec's card shows them, on the card and the phone's page. */
import { RatingSummary } from '@client/components/ui/rating-summary';
import { formatDate, formatDollars, storageLabel } from '@client/lib/format';
import { USER_STATUS_VERIFIED } from '@shared/constants';
import type { Product } from '@shared/entities';
import { TEXT } from '@shared/texts';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { CATALOG_TEXT } from '../texts';
import { ImeiCheckedBadge, PriceNote } from './trust-badges';
import { VerifiedBadge } from './verified-badge';

/**
 * The resale price; the price it dropped from, if it did, struck through after "was" (decision
 * 029); the new-phone price, muted and not struck, after "new:" (it is not a price this phone was
 * offered at, so it must not read like the drop); and the price's note against comparable sales.
 */
export function PriceTag({ product, large = false }: { product: Product; large?: boolean }) {
  return (
    <p className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
      <span className={`font-bold text-primary ${large ? 'text-3xl' : 'text-2xl'}`}>
        <span className="sr-only">Resale price </span>
        {formatDollars(product.resellPrice)}
      </span>
      {product.previousPrice !== null && (
        <span className={`font-semibold ${large ? 'text-lg' : 'text-base'}`}>
          {CATALOG_TEXT.was} <del>{formatDollars(product.previousPrice)}</del>
        </span>
      )}
      <span className={`text-current/70 ${large ? 'text-base' : 'text-sm'}`}>
        <span className="sr-only">{CATALOG_TEXT.originalPrice} </span>
        {CATALOG_TEXT.newPrice} {formatDollars(product.originalPrice)}
      </span>
      <PriceNote note={product.priceNote} />
    </p>
  );
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-2 border-b border-base-200 py-1">
      <dt className="text-current/70">{label}</dt>
      <dd className="text-right font-medium">{children}</dd>
    </div>
  );
}

/** RAM, storage, colour, battery, condition, place, months used, the seller and when it was posted. */
export function ProductDetails({
  product,
  className = 'text-sm',
}: {
  product: Product;
  className?: string;
}) {
  const { ram, storage, color, battery } = product.specificatons;
  return (
    <dl className={className}>
      <Detail label="RAM">{ram}</Detail>
      <Detail label="Storage">{storageLabel(storage)}</Detail>
      <Detail label="Color">{color}</Detail>
      <Detail label="Battery">{battery} mAh</Detail>
      {product.batteryHealth !== null && (
        <Detail label={CATALOG_TEXT.batteryHealth}>
          {CATALOG_TEXT.batteryHealthValue(product.batteryHealth)}
        </Detail>
      )}
      <Detail label="Condition">{product.condition}</Detail>
      <Detail label="Location">{product.location}</Detail>
      <Detail label="Time used">{product.timeUsed} months</Detail>
      <Detail label="Seller">
        <span className="inline-flex flex-wrap items-center justify-end gap-x-2 gap-y-1">
          <Link to={`/seller/${product.sellerId}`} className="link link-hover">
            {product.sellerName}
          </Link>
          {product.userStatus === USER_STATUS_VERIFIED && <VerifiedBadge />}
          {product.imeiChecked && <ImeiCheckedBadge />}
          <RatingSummary rating={product.sellerRating} />
        </span>
      </Detail>
      <Detail label="Posted">
        <time dateTime={product.timeOfPost}>{formatDate(product.timeOfPost)}</time>
      </Detail>
    </dl>
  );
}

/** The spec's status: Sold or Unsold. */
export function StatusBadge({ sold, className = '' }: { sold: boolean; className?: string }) {
  return (
    <span className={`badge font-semibold ${sold ? 'badge-error' : 'badge-success'} ${className}`}>
      {sold ? TEXT.product.sold : TEXT.product.unsold}
    </span>
  );
}
