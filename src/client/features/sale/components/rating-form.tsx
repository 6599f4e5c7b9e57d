import { describedBy, Field } from '@client/components/ui/field';
import { ApiError } from '@client/lib/api-client';
import { toast } from '@client/lib/toast';
import { type FormEvent, useId, useState } from 'react';
import { useRateSale } from '../api/sales';
import { SALE_TEXT } from '../texts';

const STARS = [1, 2, 3, 4, 5] as const;

/**
 * One to five stars for the other side of a handed-over sale, as a radio group (arrow keys move
 * between the stars), and an optional comment.
 */
export function RatingForm({
  saleId,
  onDone,
  actions,
}: {
  saleId: string;
  onDone?: () => void;
  actions?: React.ReactNode;
}) {
  const uid = useId();
  const commentId = `rating-comment-${uid}`;
  const errorId = `rating-stars-${uid}-error`;
  const [stars, setStars] = useState<number | null>(null);
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const rate = useRateSale({
    onSuccess: () => {
      toast.success(SALE_TEXT.rated);
      onDone?.();
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (stars === null) return setError(SALE_TEXT.starsRequired);
    setError(null);
    rate.mutate(
      { id: saleId, stars, comment: comment.trim() },
      {
        onError: (e) => setError(e instanceof ApiError ? e.message : 'The rating was not sent.'),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-3">
      <fieldset className="fieldset" {...(error ? { 'aria-describedby': errorId } : {})}>
        <legend className="fieldset-legend">{SALE_TEXT.stars}</legend>
        <div className="flex items-center gap-3">
          {/* Stars drawn with utilities, not daisyUI's `rating`: its rules match any element on
              :active and :has(~:checked), which every tap on every page paid for (decision 065). */}
          <div className="inline-flex rounded-box p-1 align-middle has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-primary">
            {STARS.map((n) => (
              <input
                key={n}
                type="radio"
                name={`stars-${uid}`}
                value={n}
                className={`mask mask-star-2 size-7 cursor-pointer appearance-none focus-visible:scale-110 ${stars !== null && n <= stars ? 'bg-warning' : 'bg-warning/20'}`}
                aria-label={SALE_TEXT.star(n)}
                checked={stars === n}
                onChange={() => setStars(n)}
              />
            ))}
          </div>
          {stars !== null && (
            <span className="text-sm" aria-hidden="true">
              {SALE_TEXT.ratedStars(stars)}
            </span>
          )}
        </div>
        {error && (
          <p id={errorId} role="alert" className="text-sm text-error">
            {error}
          </p>
        )}
      </fieldset>
      <Field id={commentId} label={SALE_TEXT.commentLabel}>
        <textarea
          id={commentId}
          className="textarea w-full"
          rows={3}
          maxLength={1000}
          value={comment}
          onChange={(event) => setComment(event.target.value)}
          {...describedBy(commentId)}
        />
      </Field>
      <div className="flex flex-wrap justify-end gap-2">
        {actions}
        <button type="submit" className="btn btn-primary" disabled={rate.isPending}>
          {rate.isPending && (
            <span className="loading loading-spinner loading-sm" aria-hidden="true" />
          )}
          {SALE_TEXT.sendRating}
        </button>
      </div>
    </form>
  );
}
