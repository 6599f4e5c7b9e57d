import { PageHead } from '@client/lib/page-head';
import type { QueryClient } from '@tanstack/react-query';
import { type LoaderFunctionArgs, useLoaderData, useSearchParams } from 'react-router';
import { PhoneBrowser } from '../components/phone-browser';
import { readFilters, SEARCH_SCOPE } from '../phone-filters';
import { loadSearchList, useSearchList } from '../phone-lists';
import { SEARCH_TEXT } from '../texts';

export const searchLoader =
  (queryClient: QueryClient) =>
  ({ request }: LoaderFunctionArgs) =>
    loadSearchList(queryClient, new URL(request.url), SEARCH_SCOPE);

const HEADING_ID = 'search-heading';

/** /search: the URL's words, filters and sort, and the phones they find (issue 18). */
export function SearchRoute() {
  const { refused } = useLoaderData<ReturnType<typeof searchLoader>>();
  const [params] = useSearchParams();
  const { filters } = readFilters(params, SEARCH_SCOPE);
  const found = useSearchList(filters, SEARCH_SCOPE, refused === null);
  return (
    <PhoneBrowser
      scope={SEARCH_SCOPE}
      headingId={HEADING_ID}
      heading={
        <>
          <PageHead
            title={SEARCH_TEXT.title(filters.q)}
            description={SEARCH_TEXT.description}
            noindex
          />
          <h1 id={HEADING_ID} className="text-3xl font-bold break-words">
            {SEARCH_TEXT.heading(filters.q)}
          </h1>
        </>
      }
      list={refused === null ? found : { refused }}
    />
  );
}
