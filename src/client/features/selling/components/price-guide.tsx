/**
 * The fair-price guide beside a listing's prices (issue 19): what phones like the seller's sold
 * for in the last 90 days, and a small chart of those prices with the seller's price marked.
 * A plain SVG strip plot: no chart library for a row of dots (decision 024).
 */
import { PriceHistory } from '@client/components/ui/price-history';
import { formatDollars } from '@client/lib/format';
import { priceHistoryQueryOptions } from '@client/lib/price-history';
import { CONDITION_OPTIONS, PRICE_GUIDE_DAYS, STORAGE_OPTIONS } from '@shared/constants';
import type { PriceGuide as Guide } from '@shared/entities';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { type PriceGuideQuestion, priceGuideQueryOptions } from '../api/price-guide';
import { useDebounced } from '../use-debounced';

/**
 * The guide's texts (not the spec's). A range's dash is held to its prices by word joiners
 * (U+2060): a phone's narrow line breaks before the range, never inside it.
 */
export const PRICE_GUIDE_TEXT = {
  title: 'Price guide',
  loading: 'Looking up what phones like yours sold for…',
  unavailable: 'The price guide is not available right now.',
  noSales: `No sales of this model and storage in the last ${PRICE_GUIDE_DAYS} days yet.`,
  sales: (count: number) => (count === 1 ? '1 sale' : `${count} sales`),
  summary: (guide: Guide & { median: number; low: number; high: number }) =>
    `Phones like yours sold for ${formatDollars(guide.median)} (median), ${formatDollars(guide.low)}\u2060–\u2060${formatDollars(guide.high)}, ${PRICE_GUIDE_TEXT.sales(guide.count)}${guide.basis === 'model-storage-condition' ? ' of this condition' : ''} in the last ${guide.days} days.`,
  chart: (guide: Guide & { median: number; low: number; high: number }, price?: number) =>
    [
      `Chart of ${guide.count === 1 ? '1 sale price' : `${guide.count} sale prices`} from ${formatDollars(guide.low)} to ${formatDollars(guide.high)}, median ${formatDollars(guide.median)}.`,
      price === undefined
        ? ''
        : ` Your price, ${formatDollars(price)}, is ${price < guide.median ? 'below' : price > guide.median ? 'above' : 'at'} the median.`,
    ].join(''),
  yourPrice: (price: number) => `Your price ${formatDollars(price)}`,
  /** The price line of the model's price history (issue 33). */
  yourPriceLine: 'Your price',
};

/** How long the model name must rest before the guide is asked (typing fires no request a key). */
export const MODEL_DEBOUNCE_MS = 400;

export type PriceGuideProps = {
  modelName: string;
  storage: string;
  condition?: string;
  /** The resale price the seller is typing, in dollars; undefined while it cannot be read. */
  price?: number;
};

const isStorage = (s: string): s is PriceGuideQuestion['storage'] =>
  (STORAGE_OPTIONS as readonly string[]).includes(s);
const isCondition = (c: string | undefined): c is NonNullable<PriceGuideQuestion['condition']> =>
  c !== undefined && (CONDITION_OPTIONS as readonly string[]).includes(c);

/** The question once the model (settled) and a storage are given; null before. */
function questionOf(modelName: string, storage: string, condition?: string) {
  const model = modelName.trim();
  if (!model || !isStorage(storage)) return null;
  return {
    modelName: model,
    storage,
    ...(isCondition(condition) ? { condition } : {}),
  } satisfies PriceGuideQuestion;
}

export function PriceGuide({ modelName, storage, condition, price }: PriceGuideProps) {
  const settledModel = useDebounced(modelName, MODEL_DEBOUNCE_MS);
  const question = questionOf(settledModel, storage, condition);
  const guide = useQuery({
    ...priceGuideQueryOptions(question ?? { modelName: '', storage: '128 GB' }),
    enabled: question !== null,
    // The previous answer stays (dimmed) while the next loads: the form does not jump.
    placeholderData: keepPreviousData,
  });
  const titleId = useId();
  // Nothing until a model and storage are set (the model as typed, before it settles).
  if (!modelName.trim() || !isStorage(storage)) return null;

  return (
    <section
      aria-labelledby={titleId}
      className="rounded-box border border-base-300 bg-base-200/50 p-3 text-sm min-h-[8.5rem]"
    >
      <h3 id={titleId} className="font-semibold">
        {PRICE_GUIDE_TEXT.title}
      </h3>
      {guide.data && question ? (
        <div className={guide.isPlaceholderData ? 'opacity-60 transition-opacity' : undefined}>
          <GuideBody guide={guide.data} price={price} />
          <GuideHistory question={question} price={price} />
        </div>
      ) : guide.isError ? (
        <p className="mt-1 text-base-content/70">{PRICE_GUIDE_TEXT.unavailable}</p>
      ) : (
        <div aria-busy="true" className="mt-2 space-y-2">
          <span className="sr-only">{PRICE_GUIDE_TEXT.loading}</span>
          <div aria-hidden="true" className="skeleton h-4 w-4/5" />
          <div aria-hidden="true" className="skeleton h-14 w-full" />
        </div>
      )}
    </section>
  );
}

function GuideBody({ guide, price }: { guide: Guide; price: number | undefined }) {
  const { median, low, high } = guide;
  if (guide.count === 0 || median === null || low === null || high === null)
    return (
      <p aria-live="polite" className="mt-1 text-base-content/70">
        {PRICE_GUIDE_TEXT.noSales}
      </p>
    );
  const figures = { ...guide, median, low, high };
  return (
    <>
      <p aria-live="polite" className="mt-1">
        {PRICE_GUIDE_TEXT.summary(figures)}
      </p>
      <PriceStrip guide={figures} price={price} />
    </>
  );
}

const WIDTH = 320;
const HEIGHT = 72;
const LEFT = 14;
const RIGHT = WIDTH - 14;
const AXIS_Y = 50;
const DOT_R = 3.5;

/**
 * A strip plot: each sale a dot on a price axis (equal prices stacked), the median a short
 * dashed line, the seller's price a solid line in the primary colour with its label. Colours are
 * the theme's (currentColor), so it follows dark mode.
 */
function PriceStrip({
  guide,
  price,
}: {
  guide: Guide & { median: number; low: number; high: number };
  price: number | undefined;
}) {
  const shown = price !== undefined && Number.isFinite(price) && price > 0 ? price : undefined;
  let min = Math.min(guide.low, shown ?? guide.low);
  let max = Math.max(guide.high, shown ?? guide.high);
  if (max - min < 1) {
    min = Math.max(0, min - Math.max(1, min * 0.1));
    max += Math.max(1, max * 0.1);
  }
  const x = (value: number) => LEFT + ((value - min) / (max - min)) * (RIGHT - LEFT);
  const stacks = new Map<number, number>();
  const dots = guide.prices.map((p) => {
    const cx = x(p);
    const bucket = Math.round(cx / (DOT_R * 2));
    const level = stacks.get(bucket) ?? 0;
    stacks.set(bucket, level + 1);
    return { cx, cy: AXIS_Y - 6 - Math.min(level, 4) * (DOT_R * 2 - 1) };
  });
  const anchor = (at: number) => (at < LEFT + 50 ? 'start' : at > RIGHT - 50 ? 'end' : 'middle');

  return (
    <svg
      role="img"
      aria-label={PRICE_GUIDE_TEXT.chart(guide, shown)}
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      className="mt-2 h-auto w-full max-w-md text-base-content"
    >
      <line
        x1={LEFT}
        x2={RIGHT}
        y1={AXIS_Y}
        y2={AXIS_Y}
        stroke="currentColor"
        strokeOpacity={0.4}
      />
      <g fill="currentColor" fillOpacity={0.55}>
        {dots.map((d, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the dots are the prices in order
          <circle key={i} cx={d.cx} cy={d.cy} r={DOT_R} />
        ))}
      </g>
      <line
        className="text-secondary"
        x1={x(guide.median)}
        x2={x(guide.median)}
        y1={AXIS_Y - 26}
        y2={AXIS_Y + 4}
        stroke="currentColor"
        strokeWidth={1.5}
        strokeDasharray="3 2"
      />
      <g fill="currentColor" fillOpacity={0.7} fontSize={10}>
        <text x={LEFT} y={HEIGHT - 6} textAnchor="start">
          {formatDollars(min)}
        </text>
        <text x={RIGHT} y={HEIGHT - 6} textAnchor="end">
          {formatDollars(max)}
        </text>
      </g>
      {shown !== undefined && (
        <g className="text-primary" fill="currentColor">
          <line
            x1={x(shown)}
            x2={x(shown)}
            y1={14}
            y2={AXIS_Y + 6}
            stroke="currentColor"
            strokeWidth={2}
          />
          <text x={x(shown)} y={10} fontSize={10} fontWeight={600} textAnchor={anchor(x(shown))}>
            {PRICE_GUIDE_TEXT.yourPrice(shown)}
          </text>
        </g>
      )}
    </svg>
  );
}

/**
 * The model's sold prices over 12 months under the guide (issue 33), with where the seller's
 * price stands. The price is asked once it rests, as the model is: typing asks no history a key.
 */
function GuideHistory({ question, price }: { question: PriceGuideQuestion; price?: number }) {
  const shown = price !== undefined && Number.isFinite(price) && price > 0 ? price : undefined;
  const settledPrice = useDebounced(shown, MODEL_DEBOUNCE_MS);
  const history = useQuery({
    ...priceHistoryQueryOptions({
      ...question,
      ...(settledPrice === undefined ? {} : { price: settledPrice }),
    }),
    placeholderData: keepPreviousData,
  });
  if (!history.data) return null;
  return (
    <div className="mt-3 border-t border-base-300 pt-2">
      <PriceHistory
        history={history.data}
        price={settledPrice}
        priceLabel={PRICE_GUIDE_TEXT.yourPriceLine}
        headingLevel="h4"
        showEmpty
      />
    </div>
  );
}
