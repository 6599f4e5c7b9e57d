import { ensureCurrent } from '@client/lib/ensure-current';
import { PageHead } from '@client/lib/page-head';
import type { QueryClient } from '@tanstack/react-query';
import { advertisedQueryOptions } from '../api/get-advertised';
import { categoriesQueryOptions } from '../api/get-categories';
import { AdvertisedGrid } from '../components/advertised-grid';
import { Carousel } from '../components/carousel';
import { CategoriesGrid } from '../components/categories-grid';
import { Feedback } from '../components/feedback';

/** Both lists load before the page shows, so nothing below them jumps. */
export const homeLoader = (queryClient: QueryClient) => async () => {
  await Promise.all([
    ensureCurrent(queryClient, categoriesQueryOptions()),
    ensureCurrent(queryClient, advertisedQueryOptions()),
  ]);
  return null;
};

export function HomeRoute() {
  return (
    <div className="space-y-12">
      <PageHead title="" path="/" />
      <Carousel />
      <CategoriesGrid />
      <AdvertisedGrid />
      <Feedback />
    </div>
  );
}
