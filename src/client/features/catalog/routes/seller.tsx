import { ShowMore } from '@client/components/ui/show-more';
import { ensureCurrent } from '@client/lib/ensure-current';
import { formatDate } from '@client/lib/format';
import { PageHead } from '@client/lib/page-head';
import type { SellerProfile } from '@shared/entities';
import type { QueryClient } from '@tanstack/react-query';
import { Link, type LoaderFunctionArgs, useLoaderData } from 'react-router';
import { sellerQueryOptions, useSeller } from '../api/get-seller';
import { sellerListingsQueryOptions, useSellerListings } from '../api/get-seller-listings';
import { PhoneGrid } from '../components/phone-grid';
import { ReportButton } from '../components/report-button';
import { SellerFacts } from '../components/seller-summary';
import { idOrNotFound, notFoundOn } from '../not-found';
import { CATALOG_TEXT } from '../texts';
import { usePhoneActions } from '../use-phone-actions';

/** The profile and the first page of phones load before the page shows; a non-seller is a 404. */
export const sellerLoader =
  (queryClient: QueryClient) =>
  async ({ params }: LoaderFunctionArgs) => {
    const id = idOrNotFound(params.id);
    await Promise.all([
      ensureCurrent(queryClient, sellerQueryOptions(id)),
      queryClient.ensureInfiniteQueryData(sellerListingsQueryOptions(id)),
    ]).catch(notFoundOn);
    return id;
  };

const descriptionOf = (seller: SellerProfile) =>
  `Used phones for sale by ${seller.name}, ${seller.verified ? 'a verified seller' : 'a seller'} on Phone Market since ${formatDate(seller.memberSince)}: ${seller.forSaleCount} for sale, ${seller.soldCount} sold.`;

/** A seller's page: who they are, what buyers said, and their phones for sale. */
export function SellerRoute() {
  const id = useLoaderData<ReturnType<typeof sellerLoader>>();
  const { data: seller } = useSeller(id);
  const { data: pages, hasNextPage, fetchNextPage, isFetchingNextPage } = useSellerListings(id);
  const products = pages.pages.flatMap((p) => p.data);
  const actions = usePhoneActions(products);

  return (
    <div className="space-y-8">
      <PageHead
        title={CATALOG_TEXT.sellerTitle(seller.name)}
        description={descriptionOf(seller)}
        path={`/seller/${seller._id}`}
        type="profile"
        // Nothing for sale: nothing worth finding it by until there is.
        noindex={seller.forSaleCount === 0}
        jsonLd={(absolute) => ({
          '@context': 'https://schema.org',
          '@type': 'ProfilePage',
          url: absolute(`/seller/${seller._id}`),
          mainEntity: { '@type': 'Person', name: seller.name },
        })}
      />
      <header className="space-y-3">
        <p className="text-sm font-semibold uppercase text-current/70">{CATALOG_TEXT.sellerPage}</p>
        <h1 className="text-3xl font-bold break-words">{seller.name}</h1>
        <SellerFacts seller={seller} />
        <ReportButton kind="seller" id={seller._id} name={seller.name} sellerId={seller._id} />
      </header>
      <section aria-labelledby="for-sale-heading" className="space-y-6">
        <h2 id="for-sale-heading" className="text-2xl font-bold">
          {CATALOG_TEXT.phonesForSale}
        </h2>
        {products.length === 0 ? (
          <p>
            {CATALOG_TEXT.nothingForSale}{' '}
            <Link to="/" className="link link-primary">
              {CATALOG_TEXT.browsePhones}
            </Link>
          </p>
        ) : (
          <PhoneGrid products={products} actions={actions} />
        )}
        {hasNextPage && (
          <div className="flex justify-center">
            <ShowMore
              query={{ hasNextPage, isFetchingNextPage, fetchNextPage }}
              label={CATALOG_TEXT.showMorePhones}
              className="btn btn-outline btn-wide"
            />
          </div>
        )}
      </section>
      {actions.modal}
    </div>
  );
}
