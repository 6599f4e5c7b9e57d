import { srcSetOf } from '@shared/images';
import { memo } from 'react';
import { Link } from 'react-router';
import { ProductActions, type ProductActionsProps } from './product-actions';
import { PriceTag, ProductDetails, StatusBadge } from './product-details';

type ProductCardProps = Omit<ProductActionsProps, 'soldBookNow' | 'className'>;

/**
 * A phone in a list (spec: "Product card"); its name leads to the phone's own page. Memoized: a
 * page re-rendering for something else (a booking form opening) does not redo its cards.
 */
export const ProductCard = memo(function ProductCard({
  product,
  onWishList,
  onUnWishList,
  wishListed,
  onBook,
  buyerActions = true,
  booking,
  priority = false,
}: ProductCardProps & { priority?: boolean }) {
  const sold = product.status === 'sold';
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
          alt={`${product.modelName} in ${product.specificatons.color}`}
          width={800}
          height={600}
          loading={priority ? 'eager' : 'lazy'}
          fetchPriority={priority ? 'high' : 'auto'}
          decoding="async"
          className="aspect-[4/3] w-full object-cover"
        />
        <StatusBadge sold={sold} className="absolute top-3 left-3" />
      </figure>
      <div className="card-body gap-3">
        <div>
          <h2 id={headingId} className="card-title text-xl">
            <Link to={`/product/${product._id}`} className="link-hover">
              {product.modelName}
            </Link>
          </h2>
          <p className="mt-1 text-sm text-current/80">{product.description}</p>
        </div>
        <PriceTag product={product} />
        <ProductDetails product={product} />
        <ProductActions
          product={product}
          onWishList={onWishList}
          onUnWishList={onUnWishList}
          wishListed={wishListed}
          onBook={onBook}
          buyerActions={buyerActions}
          booking={booking}
        />
      </div>
    </article>
  );
});
