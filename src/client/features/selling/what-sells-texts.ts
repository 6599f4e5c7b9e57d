/** What sells' texts (issue 35): not the spec's; My Products' own texts stay as they were. */
import { formatCount, formatDollars } from '@client/lib/format';
import type { WhatSells } from '@shared/entities';

const plural = (n: number, one: string, many: string) =>
  `${formatCount(n)} ${n === 1 ? one : many}`;

export const WHAT_SELLS_TEXT = {
  heading: 'What sells',
  intro: (days: number) =>
    `How your phones are seen and sold, and how phones like yours sold on the marketplace in the last ${days} days.`,
  figures: 'Interest',
  viewsOf: (n: number) => plural(n, 'view', 'views'),
  wishListsOf: (n: number) => plural(n, 'wish list', 'wish lists'),
  questionsOf: (n: number) => plural(n, 'question', 'questions'),
  bookingsOf: (n: number) => plural(n, 'booking', 'bookings'),
  daysListedOf: (n: number) => `listed ${plural(n, 'day', 'days')}`,
  salesOf: (n: number) => plural(n, 'sale', 'sales'),
  modelsHeading: 'Phones like yours',
  modelColumns: (quickDays: number) =>
    [
      'Model',
      'Storage',
      'Median days to sell',
      `Median price when sold within ${quickDays} days`,
    ] as const,
  notEnough: 'Not enough sales yet',
  days: (n: number) => plural(n, 'day', 'days'),
  price: (dollars: number) => formatDollars(dollars),
  weeksHeading: 'Your views and sales by week',
  chartSummary: (weeks: readonly WhatSells['weeks'][number][]) => {
    const views = weeks.reduce((n, w) => n + w.views, 0);
    const sales = weeks.reduce((n, w) => n + w.sales, 0);
    return `Chart of your views and sales by week over the last ${weeks.length} weeks: ${plural(views, 'view', 'views')} and ${plural(sales, 'sale', 'sales')} in all. The figures are in the table below.`;
  },
  viewsAxis: 'Views',
  salesAxis: 'Sales',
  legendViews: 'Views (bars, left scale)',
  legendSales: 'Sales (squares on a dashed line, right scale)',
  weeksTable: 'Views and sales by week as a table',
  weekColumn: 'Week',
  viewsColumn: 'Views',
  salesColumn: 'Sales',
  weekOf: (label: string) => `Week of ${label}`,
  noListings: 'List a phone to see how it is seen and sold.',
};
