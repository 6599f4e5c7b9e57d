import { RatingSummary } from '@client/components/ui/rating-summary';
import { formatDate, formatDollars, storageLabel } from '@client/lib/format';
import { USER_STATUS_VERIFIED } from '@shared/constants';
import type { Booking, Product } from '@shared/entities';
import { srcSetOf } from '@shared/images';
import { TEXT } from '@shared/texts';
import { Link } from 'react-router';
import { CATALOG_TEXT } from '../texts';

type ProductCardProps = {
  product: Product;
  onWishList?: (product: Product) => void;
  onBook?: (product: Product) => void;
  /** False for a signed-in seller or admin: booking and wish-listing are for buyers only. */
  buyerActions?: boolean;
  /** The signed-in buyer's live order for this phone, if any: it goes on to pay or to the order. */
  booking?: Pick<Booking, 'orderId' | 'stage'> | undefined;
};

function Detail({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex justify-between gap-2 border-b border-base-200 py-1">
      <dt className="opacity-70">{label}</dt>
      <dd className="text-right font-medium">{children}</dd>
    </div>
  );
}

/**
 * Instead of Book Now on a phone the buyer booked: pay for it while it is still for sale, else
 * their order (paid, or sold to another buyer meanwhile).
 */
function BookingLink({
  booking,
  sold,
  modelName,
}: {
  booking: NonNullable<ProductCardProps['booking']>;
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

export function ProductCard({
  product,
  onWishList,
  onBook,
  buyerActions = true,
  booking,
  priority = false,
}: ProductCardProps & { priority?: boolean }) {
  const sold = product.status === 'sold';
  const { ram, storage, color, battery } = product.specificatons;
  const headingId = `product-${product._id}`;
  return (
    <article
      aria-labelledby={headingId}
      className="card bg-base-100 shadow-sm ring-1 ring-base-300"
    >
      <figure className="relative bg-base-200">
        <img
          src={product.image}
          srcSet={srcSetOf(product.image)}
          sizes="(min-width: 1152px) 560px, (min-width: 768px) 50vw, 100vw"
          alt={`${product.modelName} in ${color}`}
          width={800}
          height={600}
          loading={priority ? 'eager' : 'lazy'}
          fetchPriority={priority ? 'high' : 'auto'}
          decoding="async"
          className="aspect-[4/3] w-full object-cover"
        />
        <span
          className={`badge absolute top-3 left-3 font-semibold ${sold ? 'badge-error' : 'badge-success'}`}
        >
          {sold ? TEXT.product.sold : TEXT.product.unsold}
        </span>
      </figure>
      <div className="card-body gap-3">
        <div>
          <h2 id={headingId} className="card-title text-xl">
            {product.modelName}
          </h2>
          <p className="mt-1 text-sm opacity-80">{product.description}</p>
        </div>
        <p className="flex items-baseline gap-3">
          <span className="text-2xl font-bold text-primary">
            <span className="sr-only">Resale price </span>
            {formatDollars(product.resellPrice)}
          </span>
          <del className="text-sm opacity-70">
            <span className="sr-only">Original price </span>
            {formatDollars(product.originalPrice)}
          </del>
        </p>
        <dl className="text-sm">
          <Detail label="RAM">{ram}</Detail>
          <Detail label="Storage">{storageLabel(storage)}</Detail>
          <Detail label="Color">{color}</Detail>
          <Detail label="Battery">{battery} mAh</Detail>
          <Detail label="Condition">{product.condition}</Detail>
          <Detail label="Location">{product.location}</Detail>
          <Detail label="Time used">{product.timeUsed} months</Detail>
          <Detail label="Seller">
            <span className="inline-flex flex-wrap items-center justify-end gap-x-2 gap-y-1">
              <span>{product.sellerName}</span>
              {product.userStatus === USER_STATUS_VERIFIED && (
                <span className="badge badge-info badge-sm gap-1" title="Verified seller">
                  <svg aria-hidden="true" viewBox="0 0 20 20" className="h-3 w-3 fill-current">
                    <path d="M8 14.2 3.8 10l1.4-1.4L8 11.4l6.8-6.8 1.4 1.4z" />
                  </svg>
                  verified
                </span>
              )}
              <RatingSummary rating={product.sellerRating} />
            </span>
          </Detail>
          <Detail label="Posted">
            <time dateTime={product.timeOfPost}>{formatDate(product.timeOfPost)}</time>
          </Detail>
        </dl>
        {buyerActions ? (
          <div className="card-actions items-center justify-end">
            {booking && (
              <span className="badge badge-info mr-auto">{CATALOG_TEXT.bookedByYou}</span>
            )}
            <button
              type="button"
              className="btn btn-outline btn-secondary"
              onClick={() => onWishList?.(product)}
            >
              {TEXT.product.addToWishList}
            </button>
            {booking ? (
              <BookingLink booking={booking} sold={sold} modelName={product.modelName} />
            ) : (
              <button
                type="button"
                className="btn btn-primary"
                disabled={sold}
                onClick={() => onBook?.(product)}
              >
                {TEXT.product.bookNow}
              </button>
            )}
          </div>
        ) : (
          <p className="text-right text-sm opacity-80">{CATALOG_TEXT.onlyBuyers}</p>
        )}
      </div>
    </article>
  );
}
