import { callWithHeaders } from '@client/lib/api-client';
import { queryRoots } from '@client/lib/query-keys';
import { PHONE_SHOWN_HEADER } from '@shared/constants';
import { queryOptions, useSuspenseQuery } from '@tanstack/react-query';

/**
 * A phone's own page: the phone, sold or not, and its seller's profile. Only the phone page
 * reads it (its loader, as it navigates there), so the call says the phone is shown: the server
 * counts a view of it there (decision 055's addendum), no request of its own. Nothing prefetches
 * it; whatever would read a phone without showing its page must not use these options.
 */
export const productQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...queryRoots.products, 'product', id],
    queryFn: () => callWithHeaders('product', { params: { id } }, { [PHONE_SHOWN_HEADER]: '1' }),
  });

export const useProduct = (id: string) => useSuspenseQuery(productQueryOptions(id));
