import { RatingSummary } from '@client/components/ui/rating-summary';
import { formatDate } from '@client/lib/format';
import type { SellerProfile } from '@shared/entities';
import { CATALOG_TEXT } from '../texts';
import { VerifiedBadge } from './verified-badge';

/** A seller at a glance: verified, rating, member since, sold and for-sale counts. */
export function SellerFacts({ seller }: { seller: SellerProfile }) {
  return (
    <ul className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm">
      {seller.verified && (
        <li>
          <VerifiedBadge />
        </li>
      )}
      <li>
        <RatingSummary rating={seller.rating} />
      </li>
      <li>
        {CATALOG_TEXT.memberSince}{' '}
        <time dateTime={seller.memberSince}>{formatDate(seller.memberSince)}</time>
      </li>
      <li>{CATALOG_TEXT.soldCount(seller.soldCount)}</li>
      <li>{CATALOG_TEXT.forSaleCount(seller.forSaleCount)}</li>
    </ul>
  );
}
