import { ShowMore } from '@client/components/ui/show-more';
import { signInPathFrom } from '@client/lib/auth/redirect';
import { loadRole, useRole } from '@client/lib/auth/roles';
import { session } from '@client/lib/auth/session';
import { useAuth } from '@client/lib/auth/use-auth';
import { toastError } from '@client/lib/feedback';
import { toastWithLink } from '@client/lib/toast-with-link';
import { CATEGORY_CODES, type CategoryCode } from '@shared/constants';
import type { Product } from '@shared/entities';
import { TEXT } from '@shared/texts';
import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import {
  data,
  Link,
  type LoaderFunctionArgs,
  useLoaderData,
  useNavigate,
  useSearchParams,
} from 'react-router';
import { addToWishList } from '../api/add-to-wish-list';
import { categoryProductsQueryOptions, useCategoryProducts } from '../api/get-category-products';
import { myBookingsQueryOptions } from '../api/my-bookings';
import { BookingModal } from '../components/booking-modal';
import { ProductCard } from '../components/product-card';
import { PHONE_ACTIONS, type PhoneAction, phoneActionPath } from '../return-path';
import { CATALOG_TEXT } from '../texts';

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
  const { user, loading } = useAuth();
  const role = useRole(user?.email ?? '');
  // Only a signed-in buyer has bookings to mark; visitors never ask for them.
  const bookings = useQuery({
    ...myBookingsQueryOptions(user?.email ?? ''),
    enabled: !!user && !role.loading && role.role === 'buyer',
  });
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const [booking, setBooking] = useState<Product | null>(null);

  /** Whether the signed-in user may buy; says why not when they may not. Null when signed out. */
  const mayBuy = async (refusal: string): Promise<boolean | null> => {
    const current = await session.currentUser();
    if (!current) return null;
    if ((await loadRole(queryClient, current.email)) === 'buyer') return true;
    toast.error(refusal);
    return false;
  };

  const signInToWishList = (product: Pick<Product, '_id' | 'categoryId'>) => {
    const to = signInPathFrom(phoneActionPath(product, 'wish'));
    toastWithLink(
      'error',
      TEXT.validation.wishListLogin,
      { text: CATALOG_TEXT.wishListSignIn, to },
      navigate,
    );
  };

  const wishList = async (product: Pick<Product, '_id' | 'categoryId'>) => {
    const allowed = await mayBuy(CATALOG_TEXT.wishListOnlyBuyers);
    if (allowed === null) return signInToWishList(product);
    if (!allowed) return;
    try {
      const result = await addToWishList(product._id);
      if (result.acknowledged) toast.success(TEXT.toast.wishListAdded);
      else toast.error(result.message ?? 'Not added to the wish list.');
    } catch (error) {
      toastError(error, 'Not added to the wish list.');
    }
  };

  const book = async (product: Product) => {
    // Signed out, the modal asks to sign in; a seller or admin is told at once, with no form.
    if ((await mayBuy(CATALOG_TEXT.bookOnlyBuyers)) !== false) setBooking(product);
  };

  // Back from signing in: reopen the booking form, or add the phone to the wish list, once.
  const action = PHONE_ACTIONS.find((a) => params.has(a));
  const productId = action ? params.get(action) : null;
  const done = useRef<string | null>(null);
  useEffect(() => {
    if (!action || !productId || loading) return;
    const key = `${action}:${productId}`;
    if (done.current === key) return;
    done.current = key;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const a of PHONE_ACTIONS) next.delete(a);
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
    if (user) void resume(action, productId);
  });

  const resume = async (what: PhoneAction, phoneId: string) => {
    if (what === 'wish') return wishList({ _id: phoneId, categoryId: id });
    if (!(await mayBuy(CATALOG_TEXT.bookOnlyBuyers))) return;
    // Only a phone on the loaded page can show its booking form; a sold one cannot be booked.
    const product = products.find((p) => p._id === phoneId);
    if (product && product.status !== 'sold') setBooking(product);
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

  // Booking and wish-listing are offered to buyers and to visitors (who are asked to sign in).
  const buyerActions = !user || role.loading || role.role === 'buyer';

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
            onBook={book}
            buyerActions={buyerActions}
            booking={bookings.data?.find((b) => b.productId === p._id)}
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
