import { formatRating } from '@client/lib/format';
import type { RatingSummary as Summary } from '@shared/entities';

/**
 * What the other side of someone's sales said of them: '★ 4.5 (12)', read aloud in words, or
 * 'No ratings yet' before the first.
 */
export function RatingSummary({ rating }: { rating: Summary }) {
  const shown = formatRating(rating);
  if (!shown) return <span className="text-sm text-current/80">No ratings yet</span>;
  const { average, count } = rating;
  return (
    <span className="whitespace-nowrap text-sm">
      <span aria-hidden="true">{shown}</span>
      <span className="sr-only">
        Rated {average?.toFixed(1)} out of 5 from {count} {count === 1 ? 'rating' : 'ratings'}
      </span>
    </span>
  );
}
