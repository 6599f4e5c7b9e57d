import type { Booking, Product } from '@shared/entities';
import { TEXT } from '@shared/texts';
import { Link } from 'react-router';
import { CATALOG_TEXT } from '../texts';

export type ProductActionsProps = {
  product: Product;
  onWishList?: (product: Product) => void;
  /** Takes the phone off the wish list; offered instead of adding it when `wishListed`. */
  onUnWishList?: (product: Product) => void;
  /** The phone is on the signed-in buyer's wish list. */
  wishListed?: boolean;
  onBook?: (product: Product) => void;
  /** False for a signed-in seller or admin: booking and wish-listing are for buyers only. */
  buyerActions?: boolean;
  /** The signed-in buyer's live order for this phone, if any: it goes on to pay or to the order. */
  booking?: Pick<Booking, 'orderId' | 'stage'> | undefined;
  /**
   * How a sold phone's Book Now shows: disabled, as the spec's card has it, or not at all (the
   * phone's own page, which says the phone is sold).
   */
  soldBookNow?: 'disabled' | 'hidden';
  className?: string;
};

/**
 * Instead of Book Now on a phone the buyer booked: pay for it while it is still for sale, else
 * their order (paid, or sold to another buyer meanwhile).
 */
function BookingLink({
  booking,
  sold,
  modelName,
}: {
  booking: NonNullable<ProductActionsProps['booking']>;
  sold: boolean;
  modelName: string;
}) {
  const toPay = booking.stage === 'booked' && !sold;
  return (
    <Link
      to={toPay ? `/dashboard/payment/${booking.orderId}` : `/dashboard/orders/${booking.orderId}`}
      className="btn btn-primary"
    >
      {toPay ? CATALOG_TEXT.payNow : CATALOG_TEXT.seeOrder}{' '}
      <span className="sr-only">for {modelName}</span>
    </Link>
  );
}

/** What a buyer may do to a phone: Add to Wish List and Book Now (or their booking), wherever it shows. */
export function ProductActions({
  product,
  onWishList,
  onUnWishList,
  wishListed = false,
  onBook,
  buyerActions = true,
  booking,
  soldBookNow = 'disabled',
  className = 'card-actions items-center justify-end',
}: ProductActionsProps) {
  const sold = product.status === 'sold';
  if (!buyerActions)
    return <p className="text-right text-sm text-current/80">{CATALOG_TEXT.onlyBuyers}</p>;
  return (
    <div className={className}>
      {booking && <span className="badge badge-info mr-auto">{CATALOG_TEXT.bookedByYou}</span>}
      {wishListed ? (
        <>
          <span className="badge badge-secondary badge-outline">{CATALOG_TEXT.onWishList}</span>
          <button type="button" className="btn btn-ghost" onClick={() => onUnWishList?.(product)}>
            {CATALOG_TEXT.removeFromWishList}{' '}
            <span className="sr-only">for {product.modelName}</span>
          </button>
        </>
      ) : (
        <button
          type="button"
          className="btn btn-outline btn-secondary"
          onClick={() => onWishList?.(product)}
        >
          {TEXT.product.addToWishList}
        </button>
      )}
      {booking ? (
        <BookingLink booking={booking} sold={sold} modelName={product.modelName} />
      ) : (
        !(sold && soldBookNow === 'hidden') && (
          <button
            type="button"
            className="btn btn-primary"
            disabled={sold}
            onClick={() => onBook?.(product)}
          >
            {TEXT.product.bookNow}
          </button>
        )
      )}
    </div>
  );
}
