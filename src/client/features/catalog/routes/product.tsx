import { useRole } from '@client/lib/auth/roles';
import { useAuthUser } from '@client/lib/auth/use-auth';
import { ensureCurrent } from '@client/lib/ensure-current';
import { formatDollars, storageLabel } from '@client/lib/format';
import { PageHead } from '@client/lib/page-head';
import { priceHistoryQueryOptions } from '@client/lib/price-history';
import { CATEGORIES } from '@shared/constants';
import type { Product, SellerProfile } from '@shared/entities';
import { srcSetOf } from '@shared/images';
import { TEXT } from '@shared/texts';
import type { QueryClient } from '@tanstack/react-query';
import { Link, type LoaderFunctionArgs, useLoaderData } from 'react-router';
import { productQueryOptions, useProduct } from '../api/get-product';
import { sellerPreviewQueryOptions, useOtherPhones } from '../api/get-seller-listings';
import { similarProductsQueryOptions, useSimilarProducts } from '../api/get-similar-products';
import { AdminWithdraw } from '../components/admin-withdraw';
import { AskSeller } from '../components/ask-seller';
import { ModelPriceHistory, priceHistoryQuestionOf } from '../components/model-price-history';
import { PhotoGallery } from '../components/photo-gallery';
import { ProductActions } from '../components/product-actions';
import { PriceTag, ProductDetails, StatusBadge } from '../components/product-details';
import { ReportButton } from '../components/report-button';
import { SellerFacts } from '../components/seller-summary';
import { SimilarPhones } from '../components/similar-phones';
import { idOrNotFound, notFoundOn } from '../not-found';
import { CATALOG_TEXT } from '../texts';
import { usePhoneActions } from '../use-phone-actions';

/**
 * The phone loads before the page shows; a deleted or unknown one is the 404 page. The seller's
 * other phones, phones like it and the model's price history are loaded too, but the page does not
 * depend on them.
 */
export const productLoader =
  (queryClient: QueryClient) =>
  async ({ params }: LoaderFunctionArgs) => {
    const id = idOrNotFound(params.id);
    const { product } = await ensureCurrent(queryClient, productQueryOptions(id)).catch(notFoundOn);
    await Promise.all([
      queryClient.prefetchQuery(sellerPreviewQueryOptions(product.sellerId)),
      // Phones like it and the model's price history (issue 33), rendered by the server with the
      // page: no second round trip; their failure is not the page's.
      queryClient.prefetchQuery(similarProductsQueryOptions(id)),
      queryClient.prefetchQuery(priceHistoryQueryOptions(priceHistoryQuestionOf(product))),
    ]);
    return id;
  };

/** A crumb after the first: a chevron before it, as daisyUI's breadcrumbs draw it. */
const CRUMB =
  "flex items-center before:ms-2 before:me-3 before:block before:size-1.5 before:rotate-45 before:border-t before:border-r before:border-current/40 before:content-['']";

const brandOf = (product: Product) =>
  CATEGORIES.find((c) => c.categoryId === product.categoryId)?.name ?? '';

/** 'iPhone 14 Pro, 1 TB, Good': what a search result or a shared link names the phone. */
const titleOf = (product: Product) =>
  `${product.modelName}, ${storageLabel(product.specificatons.storage)}, ${product.condition}`;

function descriptionOf(product: Product): string {
  const { ram, storage, battery } = product.specificatons;
  const facts = `${product.condition} used ${brandOf(product)} ${product.modelName}: ${storageLabel(storage)}, ${ram} RAM, ${battery} mAh, used ${product.timeUsed} months. ${formatDollars(product.resellPrice)} in ${product.location}.`;
  const text = `${facts} ${product.description}`;
  return text.length > 200 ? `${text.slice(0, 197).trimEnd()}…` : text;
}

/** schema.org's Product with its Offer, for search engines' rich results. */
const productJsonLd =
  (product: Product, seller: SellerProfile) => (absolute: (path: string) => string) => ({
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: product.modelName,
    image: product.photos.map(absolute),
    description: product.description,
    brand: { '@type': 'Brand', name: brandOf(product) },
    color: product.specificatons.color,
    offers: {
      '@type': 'Offer',
      price: product.resellPrice,
      priceCurrency: 'USD',
      availability:
        product.status === 'sold' ? 'https://schema.org/SoldOut' : 'https://schema.org/InStock',
      itemCondition:
        product.condition === 'Brand New'
          ? 'https://schema.org/NewCondition'
          : 'https://schema.org/UsedCondition',
      url: absolute(`/product/${product._id}`),
      seller: { '@type': 'Person', name: seller.name },
    },
  });

/** The seller, and a few of their other phones for sale. */
function SellerBox({ product, seller }: { product: Product; seller: SellerProfile }) {
  const others = useOtherPhones(seller._id, product._id);
  const sellerPath = `/seller/${seller._id}`;
  return (
    <section
      aria-labelledby="seller-heading"
      className="card bg-base-100 shadow-sm ring-1 ring-base-300"
    >
      <div className="card-body gap-3">
        <h2 id="seller-heading" className="text-sm font-semibold uppercase text-current/70">
          {CATALOG_TEXT.aboutSeller}
        </h2>
        <p className="text-xl font-bold">
          <Link to={sellerPath} className="link link-hover">
            {seller.name}
          </Link>
        </p>
        <SellerFacts seller={seller} />
        {others.length > 0 && (
          <>
            <h3 className="mt-2 font-semibold">{CATALOG_TEXT.moreFrom(seller.name)}</h3>
            <ul className="divide-y divide-base-200">
              {others.map((p) => (
                <li key={p._id}>
                  <Link
                    to={`/product/${p._id}`}
                    className="flex items-center gap-3 rounded-lg py-2 hover:bg-base-200"
                  >
                    <img
                      src={p.image}
                      srcSet={srcSetOf(p.image)}
                      sizes="64px"
                      alt=""
                      width={64}
                      height={48}
                      loading="lazy"
                      decoding="async"
                      className="aspect-[4/3] w-16 shrink-0 rounded object-cover"
                    />
                    <span className="min-w-0 flex-1 truncate font-medium">{p.modelName}</span>
                    <span className="font-semibold text-primary">
                      {formatDollars(p.resellPrice)}
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          </>
        )}
        <Link to={sellerPath} className="btn btn-outline btn-sm self-start">
          {CATALOG_TEXT.seeAllPhones(seller.forSaleCount)}
        </Link>
      </div>
    </section>
  );
}

/** A phone's own page: its photos, every field of its card, its seller and their other phones. */
export function ProductRoute() {
  const id = useLoaderData<ReturnType<typeof productLoader>>();
  const {
    data: { product, seller },
  } = useProduct(id);
  const similar = useSimilarProducts(product._id);
  const actions = usePhoneActions([product, ...similar]);
  const user = useAuthUser();
  const role = useRole(user?.email ?? '');
  const sold = product.status === 'sold';
  // Withdrawn by its seller (issue 19): the page says so, and offers no booking.
  const withdrawn = product.status === 'withdrawn';
  const brand = brandOf(product);

  return (
    <article aria-labelledby="product-title" className="space-y-6">
      <PageHead
        title={titleOf(product)}
        description={descriptionOf(product)}
        path={`/product/${product._id}`}
        image={product.image}
        type="product"
        noindex={sold || withdrawn}
        jsonLd={productJsonLd(product, seller)}
      />
      {/* Utilities, not daisyUI's `breadcrumbs`: its `li > :hover` rules match any element, and
          every tap restyled the tapped element's ancestry for them (decision 065). */}
      <nav aria-label={CATALOG_TEXT.breadcrumb} className="overflow-x-auto text-sm">
        <ul className="flex min-h-min items-center whitespace-nowrap">
          <li className="flex items-center">
            <Link to="/" className="hover:underline">
              {TEXT.nav.home}
            </Link>
          </li>
          <li className={CRUMB}>
            <Link to={`/category/${product.categoryId}`} className="hover:underline">
              {brand}
            </Link>
          </li>
          <li aria-current="page" className={`${CRUMB} min-w-0 truncate`}>
            {product.modelName}
          </li>
        </ul>
      </nav>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,7fr)_minmax(0,5fr)] lg:gap-10">
        <PhotoGallery
          photos={product.photos.length > 0 ? product.photos : [product.image]}
          subject={`${product.modelName} in ${product.specificatons.color}`}
          // Beside the long column of details on a wide screen, the photos stay in view.
          className="lg:sticky lg:top-6 lg:self-start"
        >
          {/* A withdrawn phone is neither for sale nor sold: its notice says what it is. */}
          {!withdrawn && <StatusBadge sold={sold} className="absolute top-3 left-3" />}
        </PhotoGallery>
        <div className="min-w-0 space-y-5">
          <header className="space-y-2">
            <h1 id="product-title" className="text-3xl font-bold break-words">
              {product.modelName}
            </h1>
            <PriceTag product={product} large />
          </header>
          {sold && (
            <div role="status" className="alert alert-warning">
              <span>
                {CATALOG_TEXT.soldNotice}{' '}
                <Link to={`/seller/${seller._id}`} className="link">
                  {CATALOG_TEXT.soldNoticeMore}
                </Link>
              </span>
            </div>
          )}
          {withdrawn && (
            <div role="status" className="alert alert-warning">
              <span>
                {CATALOG_TEXT.withdrawnNotice}{' '}
                <Link to={`/seller/${seller._id}`} className="link">
                  {CATALOG_TEXT.soldNoticeMore}
                </Link>
              </span>
            </div>
          )}
          {product.status !== 'available' && (
            <SimilarPhones products={similar} actions={actions} instead />
          )}
          {/* The admin takes a listing off the market (issue 29); its seller may relist it. */}
          {role.role === 'admin' && product.status === 'available' && (
            <AdminWithdraw productId={product._id} modelName={product.modelName} />
          )}
          {!withdrawn && (
            <ProductActions
              product={product}
              onWishList={actions.wishList}
              onUnWishList={actions.unWishList}
              wishListed={actions.wishListed(product._id)}
              onBook={actions.book}
              buyerActions={actions.buyerActions}
              booking={actions.bookingOf(product._id)}
              soldBookNow="hidden"
              className="flex flex-wrap items-center gap-2"
            />
          )}
          <p className="break-words whitespace-pre-line">{product.description}</p>
          <ProductDetails product={product} className="text-base" />
          <ModelPriceHistory product={product} />
          <SellerBox product={product} seller={seller} />
          {/* A question before booking (issue 20): buyers and visitors, on a phone for sale. */}
          {!sold && !withdrawn && actions.buyerActions && (
            <AskSeller productId={product._id} signedIn={user !== null} />
          )}
          {/* Anyone but its seller reports a listing the public can see (issue 34). */}
          {!withdrawn && (
            <ReportButton
              kind="listing"
              id={product._id}
              name={titleOf(product)}
              sellerId={seller._id}
            />
          )}
        </div>
      </div>
      {product.status === 'available' && <SimilarPhones products={similar} actions={actions} />}
      {actions.modal}
    </article>
  );
}
