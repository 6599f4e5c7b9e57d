import type { PriceHistory as History } from '@shared/entities';
import { render, screen, within } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { PriceHistory } from './price-history';

const HISTORY: History = {
  weeks: 52,
  since: '2025-12-01',
  count: 9,
  low: 420,
  high: 540,
  points: [
    { week: '2026-01-12', count: 3, median: 510, low: 480, high: 540 },
    { week: '2026-06-08', count: 4, median: 470, low: 440, high: 500 },
    { week: '2026-11-16', count: 2, median: 445, low: 420, high: 470 },
  ],
  typical: { basis: 'model-storage', days: 90, count: 6, low: 430, median: 450, high: 465 },
  verdict: 'high',
};

/** The history drawn for a phone at `price` (none: no price). */
const show = (history: History = HISTORY, price: number | null = 499) =>
  render(
    <PriceHistory
      history={history}
      {...(price === null ? {} : { price })}
      priceLabel="This phone"
    />,
  );

describe('PriceHistory', () => {
  it('says where the price stands in words, with the usual prices', () => {
    show();
    expect(
      screen.getByText(
        '$499 is a high price for this phone: similar ones usually sold for $430\u2060–\u2060$465 in the last 90 days.',
      ),
    ).toBeInTheDocument();
  });

  it('is one image named by a summary of its figures', () => {
    show();
    const chart = screen.getByRole('img');
    expect(chart).toHaveAccessibleName(
      'Chart of sold prices by week over the last 12 months: 9 sales from $420\u2060–\u2060$540; weekly medians from $445\u2060–\u2060$510, 3 weeks shown. The price of $499 is high. The figures are in the table below.',
    );
  });

  it('has every week’s figures in a table as its text alternative', () => {
    show();
    const table = screen.getByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Week of', 'Sales', 'Median', 'Lowest', 'Highest']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => [...r.children].map((c) => c.textContent))).toEqual([
      ['Jan 12, 2026', '3', '$510', '$480', '$540'],
      ['Jun 8, 2026', '4', '$470', '$440', '$500'],
      ['Nov 16, 2026', '2', '$445', '$420', '$470'],
    ]);
    // Behind a disclosure, named for what it holds.
    expect(screen.getByText('Weekly prices as a table').tagName).toBe('SUMMARY');
  });

  it('labels its axes with months and dollars, and the price line with its name and price', () => {
    show();
    const chart = screen.getByRole('img');
    const texts = [...chart.querySelectorAll('text')].map((t) => t.textContent);
    expect(texts).toContain('This phone $499');
    // Every second month from January, the first with its year.
    expect(texts).toEqual(expect.arrayContaining(['Jan2026', 'Mar', 'May', 'Jul', 'Sep', 'Nov']));
    expect(texts.filter((t) => /^\$\d/.test(t ?? '')).length).toBeGreaterThanOrEqual(3);
  });

  it('tells its marks apart by shape and dash, and names each in a legend', () => {
    show();
    const chart = screen.getByRole('img');
    // Medians: round markers; ranges: whiskers of three lines; the price: a dashed line.
    expect(chart.querySelectorAll('circle[data-part="median"]')).toHaveLength(3);
    for (const whisker of chart.querySelectorAll('[data-part="range"]'))
      expect(whisker.querySelectorAll('line')).toHaveLength(3);
    expect(chart.querySelector('[data-part="price"] line')).toHaveAttribute('stroke-dasharray');
    expect(chart.querySelector('polyline')).not.toHaveAttribute('stroke-dasharray');
    // The usual prices are hatched, not only tinted.
    expect(chart.querySelector('[data-part="usual"]')?.getAttribute('fill')).toMatch(/^url\(#/);
    const legend = screen.getAllByRole('listitem').map((li) => li.textContent);
    expect(legend).toEqual([
      'Weekly median',
      'Lowest to highest of the week',
      'Usual prices, last 90 days',
      'This phone',
    ]);
  });

  it('draws in the theme’s colours only, through currentColor and daisyUI classes', () => {
    const { container } = show();
    for (const element of container.querySelectorAll('[fill], [stroke]'))
      for (const attribute of ['fill', 'stroke'])
        expect(element.getAttribute(attribute) ?? 'none').toMatch(
          /^(none|currentColor|url\(#.+\))$/,
        );
  });

  it('shows the usual prices without a price, and no verdict', () => {
    show({ ...HISTORY, verdict: null }, null);
    expect(
      screen.getByText(
        'Similar phones usually sold for $430\u2060–\u2060$465 in the last 90 days.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('img').getAttribute('aria-label')).not.toMatch(/price of/);
    expect(screen.queryByText('This phone')).not.toBeInTheDocument();
  });

  it('shows nothing, or one line if asked, when there are too few sales', () => {
    const none: History = {
      ...HISTORY,
      count: 0,
      low: null,
      high: null,
      points: [],
      typical: null,
      verdict: null,
    };
    const { container } = show(none);
    expect(container).toBeEmptyDOMElement();
    render(<PriceHistory history={none} priceLabel="Your price" showEmpty />);
    expect(screen.getByText('Not enough sales yet to chart.')).toBeInTheDocument();
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
  });

  it('renders on the server the same as in the browser', () => {
    const html = renderToString(<PriceHistory history={HISTORY} price={499} priceLabel="X" />);
    expect(html).toContain('role="img"');
    expect(html).toContain('<table');
  });
});
