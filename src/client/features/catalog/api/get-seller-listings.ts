import { call, callPage } from '@client/lib/api-client';
import { queryRoots } from '@client/lib/query-keys';
import {
  infiniteQueryOptions,
  queryOptions,
  useQuery,
  useSuspenseInfiniteQuery,
} from '@tanstack/react-query';

/** A seller's phones for sale, newest first; each next page is the server's `Link: rel="next"` URL. */
export const sellerListingsQueryOptions = (sellerId: string) =>
  infiniteQueryOptions({
    queryKey: [...queryRoots.products, 'seller', sellerId, 'listings'],
    queryFn: ({ pageParam }) => callPage('sellerListings', { params: { id: sellerId } }, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
  });

export const useSellerListings = (sellerId: string) =>
  useSuspenseInfiniteQuery(sellerListingsQueryOptions(sellerId));

/** How many of a seller's other phones a phone's page shows. */
export const OTHER_PHONES = 4;

/** The seller's newest phones for sale, one more than shown, as the phone shown may be among them. */
export const sellerPreviewQueryOptions = (sellerId: string) =>
  queryOptions({
    queryKey: [...queryRoots.products, 'seller', sellerId, 'preview'],
    queryFn: () =>
      call('sellerListings', { params: { id: sellerId }, query: { limit: OTHER_PHONES + 1 } }),
  });

/** A few of the seller's phones for sale other than `productId`; never suspends the page. */
export function useOtherPhones(sellerId: string, productId: string) {
  const { data = [] } = useQuery(sellerPreviewQueryOptions(sellerId));
  return data.filter((p) => p._id !== productId).slice(0, OTHER_PHONES);
}
