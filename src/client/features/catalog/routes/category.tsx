import { ShowMore } from '@client/components/ui/show-more';
import { useAuth } from '@client/lib/auth/use-auth';
import { toastError } from '@client/lib/feedback';
import { CATEGORY_CODES, type CategoryCode } from '@shared/constants';
import type { Product } from '@shared/entities';
import { TEXT } from '@shared/texts';
import type { QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { data, Link, type LoaderFunctionArgs, useLoaderData } from 'react-router';
import { addToWishList } from '../api/add-to-wish-list';
import { categoryProductsQueryOptions, useCategoryProducts } from '../api/get-category-products';
import { BookingModal } from '../components/booking-modal';
import { ProductCard } from '../components/product-card';

/**
 * The category's first page loads before the page shows; an unknown brand code is a 404, a
 * known one is the loader's data.
 */
export const categoryLoader =
  (queryClient: QueryClient) =>
  async ({ params }: LoaderFunctionArgs) => {
    // A plain list check, not the contract's zod enum: this route stays free of zod.
    const id = CATEGORY_CODES.find((code): code is CategoryCode => code === params.id);
    if (!id) throw data(null, { status: 404 });
    await queryClient.ensureInfiniteQueryData(categoryProductsQueryOptions(id));
    return id;
  };

export function CategoryRoute() {
  const id = useLoaderData<ReturnType<typeof categoryLoader>>();
  const { data: pages, hasNextPage, fetchNextPage, isFetchingNextPage } = useCategoryProducts(id);
  const products = pages.pages.flatMap((p) => p.data);
  const { user } = useAuth();
  const [booking, setBooking] = useState<Product | null>(null);

  const wishList = async (product: Product) => {
    if (!user) return toast.error(TEXT.validation.wishListLogin);
    try {
      const result = await addToWishList(product._id);
      if (result.acknowledged) toast.success(TEXT.toast.wishListAdded);
      else toast.error(result.message ?? 'Not added to the wish list.');
    } catch (error) {
      toastError(error, 'Not added to the wish list.');
    }
  };

  if (products.length === 0) {
    return (
      <section className="flex min-h-[40vh] flex-col items-center justify-center gap-4 text-center">
        <h1 className="text-2xl font-bold">{TEXT.category.empty}</h1>
        <Link to="/" className="btn btn-primary">
          {TEXT.nav.home}
        </Link>
      </section>
    );
  }

  return (
    <section aria-labelledby="products-heading" className="space-y-6">
      <h1 id="products-heading" className="text-3xl font-bold">
        {TEXT.category.products}
      </h1>
      <div className="grid grid-cols-1 gap-6 md:grid-cols-2">
        {products.map((p, i) => (
          <ProductCard
            key={p._id}
            product={p}
            priority={i === 0}
            onWishList={wishList}
            onBook={setBooking}
          />
        ))}
      </div>
      {booking && <BookingModal product={booking} onClose={() => setBooking(null)} />}
      {hasNextPage && (
        <div className="flex justify-center">
          <ShowMore
            query={{ hasNextPage, isFetchingNextPage, fetchNextPage }}
            label="Show more phones"
            className="btn btn-outline btn-wide"
          />
        </div>
      )}
    </section>
  );
}
