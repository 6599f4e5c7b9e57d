import { PageHead } from '@client/lib/page-head';
import { CATEGORIES, CATEGORY_CODES, type CategoryCode } from '@shared/constants';
import { TEXT } from '@shared/texts';
import type { QueryClient } from '@tanstack/react-query';
import { data, Link, type LoaderFunctionArgs, useLoaderData, useSearchParams } from 'react-router';
import { categoryProductsQueryOptions } from '../api/get-category-products';
import { PhoneBrowser } from '../components/phone-browser';
import { brandScope, isFiltered, readFilters } from '../phone-filters';
import { loadSearchList, useCategoryList, useSearchList } from '../phone-lists';

/**
 * The category's first page loads before the page shows; an unknown brand code is a 404. With
 * no filter or sort in the URL the list is the spec's category call; with any, it is the
 * search's, the brand fixed to this one.
 */
export const categoryLoader =
  (queryClient: QueryClient) =>
  async ({ params, request }: LoaderFunctionArgs) => {
    // A plain list check, not the contract's zod enum: this route stays free of zod.
    const id = CATEGORY_CODES.find((code): code is CategoryCode => code === params.id);
    if (!id) throw data(null, { status: 404 });
    const url = new URL(request.url);
    const scope = brandScope(id);
    if (isFiltered(readFilters(url.searchParams, scope).filters, scope))
      return { id, ...(await loadSearchList(queryClient, url, scope)) };
    await queryClient.ensureInfiniteQueryData(categoryProductsQueryOptions(id));
    return { id, refused: null };
  };

const HEADING_ID = 'products-heading';

/**
 * A brand's page: the spec's 'Products' and cards, the brand named under the heading, and the
 * search's filters and sort. Sold phones show, marked Sold, as on the spec's page, unless the
 * visitor unticks them.
 */
export function CategoryRoute() {
  const { id, refused } = useLoaderData<ReturnType<typeof categoryLoader>>();
  const [params] = useSearchParams();
  const scope = brandScope(id);
  const { filters } = readFilters(params, scope);
  const filtered = isFiltered(filters, scope);
  const found = useSearchList(filters, scope, filtered && refused === null);
  const plain = useCategoryList(id, !filtered);
  const brand = CATEGORIES.find((c) => c.categoryId === id)?.name ?? '';
  const head = (
    <PageHead
      title={`Used ${brand} phones`}
      description={`Used ${brand} phones from verified sellers: prices, condition, storage and battery of each.`}
      path={`/category/${id}`}
    />
  );

  if (plain?.products.length === 0) {
    return (
      <section className="flex min-h-[40vh] flex-col items-center justify-center gap-4 text-center">
        {head}
        <h1 className="text-2xl font-bold">{TEXT.category.empty}</h1>
        <Link to="/" className="btn btn-primary">
          {TEXT.nav.home}
        </Link>
      </section>
    );
  }
  return (
    <PhoneBrowser
      scope={scope}
      headingId={HEADING_ID}
      heading={
        <>
          {head}
          <hgroup>
            <h1 id={HEADING_ID} className="text-3xl font-bold">
              {TEXT.category.products}
            </h1>
            <p className="text-lg font-semibold text-current/80">{brand}</p>
          </hgroup>
        </>
      }
      list={refused !== null ? { refused } : filtered ? found : plain}
    />
  );
}
