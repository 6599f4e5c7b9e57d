/**
 * A bar chart drawn by hand as inline SVG (issue 30): a dozen rects cost less than any chart
 * library's bundle. To assistive technology it is one image named by `summary`; the figures
 * themselves are in a table the page shows with it. Colours are the theme's, so it follows the
 * light and dark themes; the day or week labels are HTML under the bars, fewer on a phone.
 */

export type ChartBar = {
  /** The bar's place on the axis, 'Nov 2' (shown under it, and in its tooltip). */
  label: string;
  value: number;
  /** A share of `value` drawn over its foot in the second colour (the fees of a day's volume). */
  part?: number;
};

type BarChartProps = {
  /** What the chart shows, in a sentence: the image's accessible name. */
  summary: string;
  bars: readonly ChartBar[];
  format: (value: number) => string;
  /** The scale's figures (round numbers: whole dollars read better); `format` by default. */
  axisFormat?: (value: number) => string;
  /** The names of the value and of the part, for the legend and the tooltips. */
  valueName: string;
  partName?: string;
};

const BAR_WIDTH = 10;
const HEIGHT = 100;

/** A round top for the scale: 1, 2 or 5 times a power of ten, at least the highest bar. */
export function scaleTop(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  return ([1, 2, 5, 10].find((step) => step * power >= max) ?? 10) * power;
}

/** Every `step`-th label shows: about six in a narrow chart, twelve in a wide one. */
const stepFor = (count: number, labels: number) => Math.max(1, Math.ceil(count / labels));

export function BarChart({
  summary,
  bars,
  format,
  axisFormat = format,
  valueName,
  partName,
}: BarChartProps) {
  const top = scaleTop(Math.max(0, ...bars.map((b) => b.value)));
  const heightOf = (value: number) => (Math.max(0, value) / top) * HEIGHT;
  const narrowStep = stepFor(bars.length, 6);
  const wideStep = stepFor(bars.length, 12);
  const width = bars.length * BAR_WIDTH;

  return (
    // A container: how many labels fit depends on the chart's own width, not the screen's.
    <figure className="@container space-y-2">
      <div className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-2 gap-y-1">
        <div
          aria-hidden="true"
          className="flex h-40 shrink-0 flex-col justify-between text-right text-xs text-current/80"
        >
          <span>{axisFormat(top)}</span>
          <span>{axisFormat(top / 2)}</span>
          <span>{axisFormat(0)}</span>
        </div>
        <svg
          role="img"
          aria-label={summary}
          viewBox={`0 0 ${width} ${HEIGHT}`}
          preserveAspectRatio="none"
          className="h-40 w-full"
        >
          {[0, HEIGHT / 2, HEIGHT].map((y) => (
            <line
              key={y}
              x1={0}
              x2={width}
              y1={y}
              y2={y}
              className="stroke-base-content/20"
              vectorEffect="non-scaling-stroke"
            />
          ))}
          {bars.map((bar, i) => {
            const h = heightOf(bar.value);
            const p = bar.part === undefined ? 0 : Math.min(h, heightOf(bar.part));
            const tip = `${bar.label}: ${valueName} ${format(bar.value)}${
              partName && bar.part !== undefined ? `, ${partName} ${format(bar.part)}` : ''
            }`;
            return (
              <g key={bar.label}>
                <title>{tip}</title>
                {/* The whole column takes the pointer, so a zero bar has a tooltip too. */}
                <rect
                  x={i * BAR_WIDTH}
                  y={0}
                  width={BAR_WIDTH}
                  height={HEIGHT}
                  fill="transparent"
                />
                <rect
                  x={i * BAR_WIDTH + BAR_WIDTH * 0.15}
                  y={HEIGHT - h}
                  width={BAR_WIDTH * 0.7}
                  height={h}
                  className="fill-primary"
                />
                {p > 0 && (
                  <rect
                    x={i * BAR_WIDTH + BAR_WIDTH * 0.15}
                    y={HEIGHT - p}
                    width={BAR_WIDTH * 0.7}
                    height={p}
                    className="fill-secondary"
                  />
                )}
              </g>
            );
          })}
        </svg>
        <span />
        <div
          aria-hidden="true"
          className="grid text-xs text-current/80"
          style={{ gridTemplateColumns: `repeat(${bars.length}, minmax(0, 1fr))` }}
        >
          {bars.map((bar, i) => (
            <span
              key={bar.label}
              className={`flex justify-center whitespace-nowrap ${
                i % narrowStep === 0 ? '' : 'invisible'
              } ${i % wideStep === 0 ? '@2xl:visible' : '@2xl:invisible'}`}
            >
              {bar.label}
            </span>
          ))}
        </div>
      </div>
      {partName && (
        <figcaption aria-hidden="true" className="flex flex-wrap gap-4 text-sm">
          <span className="flex items-center gap-1">
            <span className="inline-block h-3 w-3 rounded-sm bg-primary" />
            {valueName}
          </span>
          <span className="flex items-center gap-1">
            <span className="inline-block h-3 w-3 rounded-sm bg-secondary" />
            {partName}
          </span>
        </figcaption>
      )}
    </figure>
  );
}
