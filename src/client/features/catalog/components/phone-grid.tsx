import type { Product } from '@shared/entities';
import type { PhoneActions } from '../use-phone-actions';
import { ProductCard } from './product-card';

/**
 * Phones as cards, two across from a tablet up (`columns` one: always one), each with the
 * buyer's actions; the first eager unless the page has its own first image (`eagerFirst` false).
 */
export function PhoneGrid({
  products,
  actions,
  columns = 2,
  eagerFirst = true,
}: {
  products: readonly Product[];
  actions: PhoneActions;
  columns?: 1 | 2;
  eagerFirst?: boolean;
}) {
  return (
    <div className={`grid grid-cols-1 gap-6${columns === 2 ? ' md:grid-cols-2' : ''}`}>
      {products.map((p, i) => (
        <ProductCard
          key={p._id}
          product={p}
          priority={eagerFirst && i === 0}
          onWishList={actions.wishList}
          onUnWishList={actions.unWishList}
          wishListed={actions.wishListed(p._id)}
          onBook={actions.book}
          buyerActions={actions.buyerActions}
          booking={actions.bookingOf(p._id)}
        />
      ))}
    </div>
  );
}
