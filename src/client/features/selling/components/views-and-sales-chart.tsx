import { scaleTop } from '@client/components/ui/bar-chart';
import { formatCount } from '@client/lib/format';
import type { WhatSells } from '@shared/entities';
import type { ReactNode } from 'react';
import { WHAT_SELLS_TEXT } from '../what-sells-texts';

type Week = WhatSells['weeks'][number];

const WIDTH = 600;
const HEIGHT = 230;
const LEFT = 44;
const RIGHT = 556;
const TOP = 14;
const BOTTOM = 190;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A week by its Monday (UTC), 'Nov 2': the server's weeks and the browser's are the same. */
export const weekLabel = (week: string) => {
  const [, month = '1', day = '1'] = week.split('-');
  return `${MONTHS[Number(month) - 1]} ${Number(day)}`;
};

/**
 * A seller's views and sales by week (issue 35, decision 055), drawn by hand as inline SVG like
 * the price history's chart: views as bars on the left scale, sales as a line with square marks
 * on the right scale, so the two read apart by shape without colour; the theme's colours follow
 * the light and dark themes. To assistive technology it is one image named by a summary; the
 * figures are in a table under a disclosure.
 */
export function ViewsAndSalesChart({ weeks }: { weeks: readonly Week[] }) {
  const viewsTop = scaleTop(Math.max(0, ...weeks.map((w) => w.views)));
  const salesTop = scaleTop(Math.max(0, ...weeks.map((w) => w.sales)));
  const band = (RIGHT - LEFT) / Math.max(1, weeks.length);
  const x = (i: number) => LEFT + band * (i + 0.5);
  const yViews = (v: number) => BOTTOM - (v / viewsTop) * (BOTTOM - TOP);
  const ySales = (v: number) => BOTTOM - (v / salesTop) * (BOTTOM - TOP);
  const line = weeks.map((w, i) => `${x(i)},${ySales(w.sales)}`).join(' ');

  return (
    <div className="space-y-2">
      <svg
        role="img"
        aria-label={WHAT_SELLS_TEXT.chartSummary(weeks)}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="h-auto w-full max-w-2xl text-base-content"
        fontSize={13}
      >
        {[0, 0.5, 1].map((share) => (
          <g key={share}>
            <line
              x1={LEFT}
              x2={RIGHT}
              y1={BOTTOM - share * (BOTTOM - TOP)}
              y2={BOTTOM - share * (BOTTOM - TOP)}
              stroke="currentColor"
              strokeOpacity={0.15}
            />
            <text
              x={LEFT - 6}
              y={BOTTOM - share * (BOTTOM - TOP)}
              dy="0.35em"
              textAnchor="end"
              fill="currentColor"
              fillOpacity={0.8}
            >
              {formatCount(viewsTop * share)}
            </text>
            <text
              x={RIGHT + 6}
              y={BOTTOM - share * (BOTTOM - TOP)}
              dy="0.35em"
              fill="currentColor"
              fillOpacity={0.8}
            >
              {formatCount(salesTop * share)}
            </text>
          </g>
        ))}
        <g className="text-primary">
          {weeks.map((w, i) => (
            <rect
              key={w.week}
              data-part="views"
              x={x(i) - band * 0.35}
              width={band * 0.7}
              y={yViews(w.views)}
              height={BOTTOM - yViews(w.views)}
              fill="currentColor"
              fillOpacity={0.45}
              stroke="currentColor"
            >
              <title>{`${weekLabel(w.week)}: ${WHAT_SELLS_TEXT.viewsOf(w.views)}`}</title>
            </rect>
          ))}
        </g>
        <g className="text-base-content">
          <polyline
            points={line}
            fill="none"
            stroke="currentColor"
            strokeWidth={2}
            strokeDasharray="5 3"
          />
          {weeks.map((w, i) => (
            <rect
              key={w.week}
              data-part="sales"
              x={x(i) - 4.5}
              y={ySales(w.sales) - 4.5}
              width={9}
              height={9}
              fill="currentColor"
              className="stroke-base-100"
              strokeWidth={1.5}
            >
              <title>{`${weekLabel(w.week)}: ${WHAT_SELLS_TEXT.salesOf(w.sales)}`}</title>
            </rect>
          ))}
        </g>
        {weeks.map(
          (w, i) =>
            i % 2 === weeks.length % 2 && (
              <text
                key={w.week}
                x={x(i)}
                y={BOTTOM + 18}
                textAnchor="middle"
                fill="currentColor"
                fillOpacity={0.8}
              >
                {weekLabel(w.week)}
              </text>
            ),
        )}
        <text x={LEFT - 6} y={HEIGHT - 6} textAnchor="end" fill="currentColor" fillOpacity={0.8}>
          {WHAT_SELLS_TEXT.viewsAxis}
        </text>
        <text x={RIGHT + 6} y={HEIGHT - 6} fill="currentColor" fillOpacity={0.8}>
          {WHAT_SELLS_TEXT.salesAxis}
        </text>
      </svg>
      <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-base-content/80">
        <LegendItem label={WHAT_SELLS_TEXT.legendViews}>
          <rect
            x={4}
            y={2}
            width={12}
            height={11}
            className="text-primary"
            fill="currentColor"
            fillOpacity={0.45}
            stroke="currentColor"
          />
        </LegendItem>
        <LegendItem label={WHAT_SELLS_TEXT.legendSales}>
          <line
            x1={1}
            x2={19}
            y1={7}
            y2={7}
            stroke="currentColor"
            strokeWidth={2}
            strokeDasharray="5 3"
          />
          <rect x={6} y={3} width={8} height={8} fill="currentColor" />
        </LegendItem>
      </ul>
      <details className="text-sm">
        <summary className="cursor-pointer">{WHAT_SELLS_TEXT.weeksTable}</summary>
        <div className="overflow-x-auto">
          <table className="table table-xs mt-1">
            <thead className="text-base-content/80">
              <tr>
                <th scope="col">{WHAT_SELLS_TEXT.weekColumn}</th>
                <th scope="col">{WHAT_SELLS_TEXT.viewsColumn}</th>
                <th scope="col">{WHAT_SELLS_TEXT.salesColumn}</th>
              </tr>
            </thead>
            <tbody>
              {weeks.map((w) => (
                <tr key={w.week}>
                  <th scope="row" className="font-normal">
                    {WHAT_SELLS_TEXT.weekOf(weekLabel(w.week))}
                  </th>
                  <td>{formatCount(w.views)}</td>
                  <td>{formatCount(w.sales)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
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
