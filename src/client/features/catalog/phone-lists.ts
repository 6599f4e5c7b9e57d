/**
 * Where a list of phones comes from: the spec's category call for a brand's plain list, the
 * search for any other. Loaders fill the cache before a page shows (and the server renders it);
 * the page reads both sources through hooks it always calls, each enabled for its own case, so
 * the page, its filters and its drawer stay the same elements when the source changes.
 */
import { ApiError } from '@client/lib/api-client';
import type { CategoryCode } from '@shared/constants';
import { type QueryClient, useInfiniteQuery } from '@tanstack/react-query';
import { categoryProductsQueryOptions } from './api/get-category-products';
import { searchProductsQueryOptions } from './api/search-products';
import type { PhoneList } from './components/phone-browser';
import { type FilterScope, type PhoneFilters, readFilters, searchInput } from './phone-filters';
import { SEARCH_TEXT } from './texts';

/**
 * The search's first page for the URL, before the page shows. A query the server refuses (400:
 * a minimum price above the maximum, say; 429: too many searches in a minute) is the loader's
 * answer, the server's message shown on the page beside the filters; any other failure is the
 * route's error page.
 */
export async function loadSearchList(
  queryClient: QueryClient,
  url: URL,
  scope: FilterScope,
): Promise<{ refused: string | null }> {
  const { filters } = readFilters(url.searchParams, scope);
  try {
    await queryClient.ensureInfiniteQueryData(
      searchProductsQueryOptions(searchInput(filters, scope)),
    );
    return { refused: null };
  } catch (error) {
    if (error instanceof ApiError && error.status === 400)
      return { refused: `${SEARCH_TEXT.refused} ${error.message}` };
    if (error instanceof ApiError && error.status === 429) return { refused: error.message };
    throw error;
  }
}

/** The search's phones for `filters` (the URL's), a page at a time; null when not `enabled`. */
export function useSearchList(
  filters: PhoneFilters,
  scope: FilterScope,
  enabled: boolean,
): PhoneList | null {
  const query = useInfiniteQuery({
    ...searchProductsQueryOptions(searchInput(filters, scope)),
    enabled,
  });
  if (!enabled || !query.data) return null;
  const first = query.data.pages[0]?.data;
  return {
    products: query.data.pages.flatMap((p) => p.data.products),
    total: { count: first?.count ?? 0, capped: first?.countCapped ?? false },
    closeMatches: first?.closeMatches ?? false,
    more: query,
  };
}

/** The brand's phones by the spec's call, newest first, sold ones in; null when not `enabled`. */
export function useCategoryList(id: CategoryCode, enabled: boolean): PhoneList | null {
  const query = useInfiniteQuery({ ...categoryProductsQueryOptions(id), enabled });
  if (!enabled || !query.data) return null;
  return { products: query.data.pages.flatMap((p) => p.data), total: null, more: query };
}
