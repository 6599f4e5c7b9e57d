/**
 * A model's sold prices over the last 12 months (issue 33, decision 051): the weekly median as a
 * line of round markers, each week's range as a whisker with square caps, the usual prices of
 * the last 90 days as a hatched band, and the phone's price as a labelled dashed line. Drawn by
 * hand as inline SVG, rendered on the server: no chart library's JavaScript on a public page.
 * Shared by the phone page (catalog) and the price guide (selling), so it lives here with its
 * texts. Nothing is told by colour alone: line, whisker, band and price differ in shape and
 * dash, a legend names them, the sentence says where the price stands, and the figures are in a
 * table under a disclosure for anyone who cannot see the picture.
 */
import { formatDollars } from '@client/lib/format';
import type { PriceHistory as History, PriceVerdict } from '@shared/entities';
import { type ReactNode, useId } from 'react';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** '2026-11-23' → 'Nov 23, 2026' (a week's Monday, in UTC as the server names it). */
const weekLabel = (week: string) => {
  const date = new Date(`${week}T00:00:00Z`);
  return `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
};

/** A range whose dash is held to its prices by word joiners (as the guide's texts do). */
const range = (low: number, high: number) =>
  `${formatDollars(low)}\u2060–\u2060${formatDollars(high)}`;

/** The price history's texts (not the spec's). */
export const PRICE_HISTORY_TEXT = {
  title: 'Price history',
  notEnough: 'Not enough sales yet to chart.',
  verdictWord: { low: 'low', typical: 'typical', high: 'high' } satisfies Record<
    PriceVerdict,
    string
  >,
  verdict: (price: number, verdict: PriceVerdict, low: number, high: number, days: number) =>
    `${formatDollars(price)} is a ${PRICE_HISTORY_TEXT.verdictWord[verdict]} price for this phone: similar ones usually sold for ${range(low, high)} in the last ${days} days.`,
  usual: (low: number, high: number, days: number) =>
    `Similar phones usually sold for ${range(low, high)} in the last ${days} days.`,
  summary: (history: History, points: History['points'], price?: number) => {
    const medians = points.map((p) => p.median);
    const where =
      price !== undefined && history.verdict
        ? ` The price of ${formatDollars(price)} is ${PRICE_HISTORY_TEXT.verdictWord[history.verdict]}.`
        : '';
    return `Chart of sold prices by week over the last 12 months: ${history.count} ${history.count === 1 ? 'sale' : 'sales'} from ${range(history.low ?? 0, history.high ?? 0)}; weekly medians from ${range(Math.min(...medians), Math.max(...medians))}, ${points.length} ${points.length === 1 ? 'week' : 'weeks'} shown.${where} The figures are in the table below.`;
  },
  legendMedian: 'Weekly median',
  legendRange: 'Lowest to highest of the week',
  legendUsual: (days: number) => `Usual prices, last ${days} days`,
  legendPrice: (label: string) => label,
  table: 'Weekly prices as a table',
  columns: ['Week of', 'Sales', 'Median', 'Lowest', 'Highest'] as const,
};

export type PriceHistoryProps = {
  history: History;
  /** The price to mark and judge; its verdict is the server's, for the same price. */
  price?: number;
  /** What the price line is called: "This phone", "Your price". */
  priceLabel: string;
  headingLevel?: 'h2' | 'h3' | 'h4';
  /** Say "not enough sales" rather than nothing when there is no chart. */
  showEmpty?: boolean;
};

export function PriceHistory({
  history,
  price,
  priceLabel,
  headingLevel: Heading = 'h2',
  showEmpty = false,
}: PriceHistoryProps) {
  const titleId = useId();
  const { typical, verdict } = history;
  const charted = history.count > 0 && history.points.length > 0;
  if (!charted && !typical && !showEmpty) return null;
  return (
    <section aria-labelledby={titleId} className="space-y-2">
      <Heading id={titleId} className="font-semibold">
        {PRICE_HISTORY_TEXT.title}
      </Heading>
      {typical && (
        <p>
          {price !== undefined && verdict
            ? PRICE_HISTORY_TEXT.verdict(price, verdict, typical.low, typical.high, typical.days)
            : PRICE_HISTORY_TEXT.usual(typical.low, typical.high, typical.days)}
        </p>
      )}
      {charted ? (
        <Chart history={history} price={price} priceLabel={priceLabel} />
      ) : (
        <p className="text-base-content/70">{PRICE_HISTORY_TEXT.notEnough}</p>
      )}
    </section>
  );
}

const WIDTH = 400;
const HEIGHT = 210;
const LEFT = 54;
const RIGHT = WIDTH - 10;
const TOP = 12;
const BOTTOM = HEIGHT - 38;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A round step for about `count` ticks over `span`: 1, 2 or 5 times a power of ten. */
function stepFor(span: number, count: number) {
  const rough = Math.max(span, 1) / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  return ([1, 2, 5, 10].find((m) => m * power >= rough) ?? 10) * power;
}

function Chart({
  history,
  price,
  priceLabel,
}: {
  history: History;
  price: number | undefined;
  priceLabel: string;
}) {
  const id = useId();
  const hatch = `${id}-hatch`;
  const { points, typical } = history;
  const start = Date.parse(`${history.since}T00:00:00Z`);
  const weekIndex = (iso: string) => (Date.parse(`${iso}T00:00:00Z`) - start) / (7 * DAY_MS);
  const x = (index: number) => LEFT + ((index + 0.5) / history.weeks) * (RIGHT - LEFT);

  const values = [
    ...points.flatMap((p) => [p.low, p.high]),
    ...(price === undefined ? [] : [price]),
    ...(typical ? [typical.low, typical.high] : []),
  ];
  const step = stepFor(Math.max(...values) - Math.min(...values), 4);
  const bottom = Math.max(0, Math.floor(Math.min(...values) / step) * step);
  const top = Math.max(bottom + step, Math.ceil(Math.max(...values) / step) * step);
  const y = (value: number) => BOTTOM - ((value - bottom) / (top - bottom)) * (BOTTOM - TOP);
  const ticks = Array.from(
    { length: Math.round((top - bottom) / step) + 1 },
    (_, i) => Math.round((bottom + i * step) * 100) / 100,
  );

  // The first of each month within the 52 weeks; every second one labelled (they fit a phone).
  const months: { index: number; label: string; year?: number }[] = [];
  const first = new Date(start);
  for (
    let m = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 1));
    m.getTime() < start + history.weeks * 7 * DAY_MS;
    m = new Date(Date.UTC(m.getUTCFullYear(), m.getUTCMonth() + 1, 1))
  )
    months.push({
      index: (m.getTime() - start) / (7 * DAY_MS) - 0.5,
      label: MONTHS[m.getUTCMonth()] ?? '',
      ...(m.getUTCMonth() === 0 || months.length === 0 ? { year: m.getUTCFullYear() } : {}),
    });

  const usualFrom = typical ? history.weeks - typical.days / 7 : 0;
  const line = points.map((p) => `${x(weekIndex(p.week))},${y(p.median)}`).join(' ');
  const priceY = price === undefined ? 0 : y(price);

  return (
    // Not a <figure>: daisyUI lays a card's figures out as a row.
    <div className="space-y-2">
      <svg
        role="img"
        aria-label={PRICE_HISTORY_TEXT.summary(history, points, price)}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="h-auto w-full max-w-xl text-base-content"
        fontSize={14}
      >
        <defs>
          <pattern id={hatch} width={6} height={6} patternUnits="userSpaceOnUse">
            <path d="M0 6 L6 0" stroke="currentColor" strokeOpacity={0.35} strokeWidth={1} />
          </pattern>
        </defs>
        {ticks.map((tick) => (
          <g key={tick}>
            <line
              x1={LEFT}
              x2={RIGHT}
              y1={y(tick)}
              y2={y(tick)}
              stroke="currentColor"
              strokeOpacity={0.12}
            />
            <text
              x={LEFT - 6}
              y={y(tick)}
              dy="0.35em"
              textAnchor="end"
              fill="currentColor"
              fillOpacity={0.75}
            >
              {formatDollars(tick)}
            </text>
          </g>
        ))}
        {months.map((month, i) => (
          <g key={`${month.label}-${month.index}`}>
            <line
              x1={x(month.index)}
              x2={x(month.index)}
              y1={BOTTOM}
              y2={BOTTOM + 4}
              stroke="currentColor"
              strokeOpacity={0.5}
            />
            {i % 2 === 0 && (
              <text
                x={x(month.index)}
                y={BOTTOM + 16}
                textAnchor="middle"
                fill="currentColor"
                fillOpacity={0.75}
              >
                {month.label}
                {month.year !== undefined && (
                  <tspan x={x(month.index)} dy="1.1em">
                    {month.year}
                  </tspan>
                )}
              </text>
            )}
          </g>
        ))}
        {typical && (
          <rect
            data-part="usual"
            x={x(usualFrom - 0.5)}
            width={RIGHT - x(usualFrom - 0.5)}
            y={y(typical.high)}
            height={Math.max(1, y(typical.low) - y(typical.high))}
            fill={`url(#${hatch})`}
            stroke="currentColor"
            strokeOpacity={0.3}
          />
        )}
        <g className="text-base-content" stroke="currentColor" strokeOpacity={0.55}>
          {points.map((p) => {
            const at = x(weekIndex(p.week));
            return (
              <g key={p.week} data-part="range">
                <line x1={at} x2={at} y1={y(p.high)} y2={y(p.low)} />
                <line x1={at - 3} x2={at + 3} y1={y(p.high)} y2={y(p.high)} />
                <line x1={at - 3} x2={at + 3} y1={y(p.low)} y2={y(p.low)} />
              </g>
            );
          })}
        </g>
        <g className="text-primary">
          <polyline
            points={line}
            fill="none"
            stroke="currentColor"
            strokeWidth={2}
            strokeLinejoin="round"
          />
          {points.map((p) => (
            <circle
              key={p.week}
              data-part="median"
              cx={x(weekIndex(p.week))}
              cy={y(p.median)}
              r={3.5}
              fill="currentColor"
              className="stroke-base-100"
              strokeWidth={1.5}
            >
              <title>{`${weekLabel(p.week)}: median ${formatDollars(p.median)}, ${range(p.low, p.high)}, ${p.count} sales`}</title>
            </circle>
          ))}
        </g>
        {price !== undefined && (
          <g data-part="price">
            <line
              x1={LEFT}
              x2={RIGHT}
              y1={priceY}
              y2={priceY}
              stroke="currentColor"
              strokeWidth={1.5}
              strokeDasharray="6 4"
            />
            <text
              x={RIGHT}
              y={priceY < TOP + 14 ? priceY + 14 : priceY - 5}
              textAnchor="end"
              fontWeight={600}
              fill="currentColor"
              className="stroke-base-100"
              strokeWidth={3}
              paintOrder="stroke"
            >
              {`${priceLabel} ${formatDollars(price)}`}
            </text>
          </g>
        )}
      </svg>
      <div>
        <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-base-content/80">
          <LegendItem label={PRICE_HISTORY_TEXT.legendMedian}>
            <line x1={1} x2={19} y1={7} y2={7} className="stroke-primary" strokeWidth={2} />
            <circle cx={10} cy={7} r={3.5} className="fill-primary" />
          </LegendItem>
          <LegendItem label={PRICE_HISTORY_TEXT.legendRange}>
            <g stroke="currentColor" strokeOpacity={0.7}>
              <line x1={10} x2={10} y1={1} y2={13} />
              <line x1={7} x2={13} y1={1} y2={1} />
              <line x1={7} x2={13} y1={13} y2={13} />
            </g>
          </LegendItem>
          {typical && (
            <LegendItem label={PRICE_HISTORY_TEXT.legendUsual(typical.days)}>
              <rect
                x={1}
                y={2}
                width={18}
                height={10}
                fill={`url(#${hatch})`}
                stroke="currentColor"
                strokeOpacity={0.3}
              />
            </LegendItem>
          )}
          {price !== undefined && (
            <LegendItem label={PRICE_HISTORY_TEXT.legendPrice(priceLabel)}>
              <line
                x1={1}
                x2={19}
                y1={7}
                y2={7}
                stroke="currentColor"
                strokeWidth={1.5}
                strokeDasharray="6 4"
              />
            </LegendItem>
          )}
        </ul>
        <details className="mt-2 text-sm">
          <summary className="cursor-pointer">{PRICE_HISTORY_TEXT.table}</summary>
          <div className="overflow-x-auto">
            <table className="table table-xs mt-1">
              <thead>
                <tr>
                  {PRICE_HISTORY_TEXT.columns.map((column) => (
                    <th key={column} scope="col">
                      {column}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {points.map((p) => (
                  <tr key={p.week}>
                    <th scope="row" className="font-normal">
                      {weekLabel(p.week)}
                    </th>
                    <td>{p.count}</td>
                    <td>{formatDollars(p.median)}</td>
                    <td>{formatDollars(p.low)}</td>
                    <td>{formatDollars(p.high)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      </div>
    </div>
  );
}

/** A legend's entry: its mark drawn as in the chart, and its words. */
function LegendItem({ label, children }: { label: string; children: ReactNode }) {
  return (
    <li className="flex items-center gap-1.5">
      <svg aria-hidden="true" viewBox="0 0 20 14" className="h-3.5 w-5 shrink-0 text-base-content">
        {children}
      </svg>
      {label}
    </li>
  );
}
