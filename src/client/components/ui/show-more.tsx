/** The next page of a paged list (TanStack Query's infinite query), while there is one. */
export function ShowMore({
  query,
  label = 'Show more',
  className = 'btn btn-outline',
}: {
  query: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown };
  label?: string;
  className?: string;
}) {
  if (!query.hasNextPage) return null;
  return (
    <button
      type="button"
      className={className}
      onClick={() => query.fetchNextPage()}
      disabled={query.isFetchingNextPage}
    >
      {query.isFetchingNextPage ? 'Loading…' : label}
    </button>
  );
}
