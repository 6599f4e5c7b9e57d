/**
 * What a buyer does to a phone wherever it is shown (a brand page, a search, a phone's page):
 * book it, wish-list it, see that they booked it. A visitor is asked to sign in and comes back
 * to the same page with the action done; a seller or admin is told that only buyers may.
 */
import { signInPathFrom } from '@client/lib/auth/redirect';
import { loadRole, useRole } from '@client/lib/auth/roles';
import { session } from '@client/lib/auth/session';
import { useAuthUser } from '@client/lib/auth/use-auth';
import { deferredModule, loadForTap } from '@client/lib/deferred-module';
import { toastError } from '@client/lib/feedback';
import { toast } from '@client/lib/toast';
import { toastWithLink } from '@client/lib/toast-with-link';
import { useValue, type ValueStore, valueStore } from '@client/lib/value-store';
import type { Booking, Product, WishListItem } from '@shared/entities';
import { TEXT } from '@shared/texts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type ReactNode,
  useDeferredValue,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { addToWishList } from './api/add-to-wish-list';
import { myBookingsQueryOptions } from './api/my-bookings';
import { myWishListQueryOptions, removeFromWishList } from './api/my-wish-list';
import { PHONE_ACTIONS, type PhoneAction, phoneActionPath } from './return-path';
import { CATALOG_TEXT } from './texts';

/** The booking form (and react-hook-form with it) is fetched when idle, not with the page. */
const bookingModal = deferredModule(() => import('./components/booking-modal'));

/**
 * The booking form of the phone in `state`, kept outside the page's state: opening the form
 * renders the form alone, not the page with its cards and its filters (issue 36).
 */
function OpenBooking({ state }: { state: ValueStore<Product | null> }) {
  const chosen = useValue(state, null);
  // Made just after the tap's frame (decision 063), taken away at once.
  const soon = useDeferredValue(chosen, null);
  const booking = chosen && soon === chosen ? chosen : null;
  const BookingModal = bookingModal.current()?.BookingModal;
  return booking && BookingModal ? (
    <BookingModal product={booking} onClose={() => state.set(null)} />
  ) : null;
}

export type PhoneActions = {
  wishList: (product: Pick<Product, '_id'>) => Promise<void>;
  /** Takes a phone off the wish list (issue 31: offered instead of adding it again). */
  unWishList: (product: Pick<Product, '_id'>) => Promise<void>;
  book: (product: Product) => Promise<void>;
  /** False for a signed-in seller or admin: booking and wish-listing are for buyers only. */
  buyerActions: boolean;
  /** The signed-in buyer's live order for a phone, if any. */
  bookingOf: (productId: string) => Booking | undefined;
  /** Whether the signed-in buyer has the phone on their wish list. */
  wishListed: (productId: string) => boolean;
  /** The booking form, while one is open: render it once on the page. */
  modal: ReactNode;
};

/** `products`: the phones on the page, the ones whose booking form may reopen after sign-in. */
export function usePhoneActions(products: readonly Product[]): PhoneActions {
  // The user alone: a visitor's session resolving to no one changes nothing on the cards.
  const user = useAuthUser();
  const role = useRole(user?.email ?? '');
  // Only a signed-in buyer has bookings to mark; visitors never ask for them.
  const bookings = useQuery({
    ...myBookingsQueryOptions(user?.email ?? ''),
    enabled: !!user && !role.loading && role.role === 'buyer',
  });
  const wishListQuery = myWishListQueryOptions(user?.email ?? '');
  const wishListItems = useQuery({
    ...wishListQuery,
    enabled: !!user && !role.loading && role.role === 'buyer',
  });
  const wishListItemOf = (productId: string): WishListItem | undefined =>
    wishListItems.data?.find((w) => w.productId === productId);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const here = useLocation();
  const [params, setParams] = useSearchParams();
  const [booking] = useState(() => valueStore<Product | null>(null));
  const modal = useMemo(() => <OpenBooking state={booking} />, [booking]);

  /** Whether the signed-in user may buy; says why not when they may not. Null when signed out. */
  const mayBuy = async (refusal: string): Promise<boolean | null> => {
    const current = await session.currentUser();
    if (!current) return null;
    if ((await loadRole(queryClient, current.email)) === 'buyer') return true;
    toast.error(refusal);
    return false;
  };

  const wishList = async (product: Pick<Product, '_id'>) => {
    const allowed = await mayBuy(CATALOG_TEXT.wishListOnlyBuyers);
    if (allowed === null) {
      const to = signInPathFrom(phoneActionPath(here, product._id, 'wish'));
      toastWithLink(
        'error',
        TEXT.validation.wishListLogin,
        { text: CATALOG_TEXT.wishListSignIn, to },
        navigate,
      );
      return;
    }
    if (!allowed) return;
    try {
      const result = await addToWishList(product._id);
      if (result.acknowledged) toast.success(TEXT.toast.wishListAdded);
      else toast.error(result.message ?? CATALOG_TEXT.wishListNotAdded);
    } catch (error) {
      toastError(error, CATALOG_TEXT.wishListNotAdded);
    }
    await queryClient.invalidateQueries({ queryKey: wishListQuery.queryKey });
  };

  const unWishList = async (product: Pick<Product, '_id'>) => {
    const item = wishListItemOf(product._id);
    if (!item) return;
    try {
      await removeFromWishList(item._id);
      toast.success(TEXT.toast.wishListDeleted);
    } catch (error) {
      toastError(error, CATALOG_TEXT.wishListNotRemoved);
    }
    await queryClient.invalidateQueries({ queryKey: wishListQuery.queryKey });
  };

  useEffect(() => bookingModal.preloadWhenIdle(), []);
  /** Opens the booking form once its script is here (fetched now if the idle time did not). */
  const openBooking = async (product: Product) => {
    if (await loadForTap(bookingModal, CATALOG_TEXT.bookingNotLoaded)) booking.set(product);
  };

  const book = async (product: Product) => {
    // Signed out, the modal asks to sign in; a seller or admin is told at once, with no form.
    if ((await mayBuy(CATALOG_TEXT.bookOnlyBuyers)) !== false) await openBooking(product);
  };

  const resume = async (what: PhoneAction, phoneId: string) => {
    if (what === 'wish') return wishList({ _id: phoneId });
    if (!(await mayBuy(CATALOG_TEXT.bookOnlyBuyers))) return;
    // Only a phone on the page can show its booking form; a sold one cannot be booked.
    const product = products.find((p) => p._id === phoneId);
    if (product && product.status !== 'sold') await openBooking(product);
  };

  // Back from signing in: reopen the booking form, or add the phone to the wish list, once.
  const action = PHONE_ACTIONS.find((a) => params.has(a));
  const productId = action ? params.get(action) : null;
  const done = useRef<string | null>(null);
  useEffect(() => {
    if (!action || !productId) return;
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
    // Once the session is known: signed out (the sign-in was given up), nothing to resume.
    void session.currentUser().then((current) => current && resume(action, productId));
  });

  // The cards are given the same functions on every render, each calling the latest: a page
  // re-rendering (its booking form opening) leaves its memoized cards alone (issue 36).
  const latest = useRef({ wishList, unWishList, book });
  useLayoutEffect(() => {
    latest.current = { wishList, unWishList, book };
  });
  const stable = useMemo(
    () => ({
      wishList: (product: Pick<Product, '_id'>) => latest.current.wishList(product),
      unWishList: (product: Pick<Product, '_id'>) => latest.current.unWishList(product),
      book: (product: Product) => latest.current.book(product),
    }),
    [],
  );

  return {
    ...stable,
    buyerActions: !user || role.loading || role.role === 'buyer',
    bookingOf: (id) => bookings.data?.find((b) => b.productId === id),
    wishListed: (id) => wishListItemOf(id) !== undefined,
    modal,
  };
}
