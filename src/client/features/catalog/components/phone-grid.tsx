import type { Product } from '@shared/entities';
import type { PhoneActions } from '../use-phone-actions';
import { ProductCard } from './product-card';

/** Phones as cards, two across from a tablet up, each with the buyer's actions; the first eager. */
export function PhoneGrid({
  products,
  actions,
}: {
  products: readonly Product[];
  actions: PhoneActions;
}) {
  return (
    <div className="grid grid-cols-1 gap-6 md:grid-cols-2">
      {products.map((p, i) => (
        <ProductCard
          key={p._id}
          product={p}
          priority={i === 0}
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
