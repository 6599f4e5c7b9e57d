import { type Answer, call, callPage } from '@client/lib/api-client';
import type { MutationConfig } from '@client/lib/query-client';
import { queryRoots } from '@client/lib/query-keys';
import { useRefreshingMutation } from '@client/lib/use-refreshing-mutation';
import type { OwnProduct } from '@shared/entities';
import { queryOptions } from '@tanstack/react-query';
import { myProductsQueryOptions } from './my-products';

/** The phone `id` in the seller's list, from the page at `next` on. */
async function findMine(
  email: string,
  id: string,
  next: string | null,
): Promise<OwnProduct | null> {
  const page = await callPage('myProducts', { query: { email, limit: 100 } }, next);
  return page.data.find((p) => p._id === id) ?? (page.next ? findMine(email, id, page.next) : null);
}

/**
 * One of the seller's own phones, or null when it is not theirs (or not there): looked up in
 * their list, a page at a time, under that list's key so whatever refreshes it refreshes this.
 */
export const myProductQueryOptions = (email: string, id: string) =>
  queryOptions({
    queryKey: [...myProductsQueryOptions(email).queryKey, 'one', id],
    queryFn: () => findMine(email, id, null),
  });

type PhotosChange = { id: string; photos: string[] };

export const setProductPhotos = ({ id, photos }: PhotosChange) =>
  call('setProductPhotos', { params: { id }, body: { photos } });

/** A new cover shows on the phone's card, its brand's page and the advertised list: they refresh. */
export const useSetProductPhotos = (
  config?: MutationConfig<Answer<'setProductPhotos'>, PhotosChange>,
) => useRefreshingMutation(setProductPhotos, () => [queryRoots.products], config);
