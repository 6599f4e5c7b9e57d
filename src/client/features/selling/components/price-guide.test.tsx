import type { PriceGuide as Guide, PriceHistory as History } from '@shared/entities';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PriceGuide, type PriceGuideProps } from './price-guide';

afterEach(() => {
  vi.unstubAllGlobals();
});

const GUIDE: Guide = {
  basis: 'model-storage',
  days: 90,
  count: 6,
  median: 474,
  low: 455,
  high: 499,
  prices: [455, 459, 469, 479, 489, 499],
};

/** Too few sales to chart: the price history's answer unless a test gives one. */
const NO_HISTORY: History = {
  weeks: 52,
  since: '2025-12-01',
  count: 0,
  low: null,
  high: null,
  points: [],
  typical: null,
  verdict: null,
};

const isHistory = (input: RequestInfo | URL) =>
  new URL(String(input), 'http://localhost').pathname === '/api/price-guide/history';

/**
 * Answers every price-guide request with `answer`, recording the URLs asked (`fetch` counts
 * them), and the price history's with `history` (recorded apart, in `historyUrls`).
 */
function stubGuide(answer: Guide | (() => Promise<Response>), history = NO_HISTORY) {
  const all = vi.fn(async (input: RequestInfo | URL) => {
    if (isHistory(input)) return Response.json(history);
    fetch(input);
    return typeof answer === 'function' ? answer() : Response.json(answer);
  });
  const fetch = vi.fn((_input: RequestInfo | URL) => {});
  vi.stubGlobal('fetch', all);
  const urlsOf = (calls: [RequestInfo | URL][]) =>
    calls.map(([input]) => new URL(String(input), 'http://localhost'));
  return {
    fetch,
    urls: () => urlsOf(fetch.mock.calls),
    historyUrls: () => urlsOf(all.mock.calls.filter(([input]) => isHistory(input))),
  };
}

function renderGuide(props: PriceGuideProps) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrap = (node: ReactNode) => (
    <QueryClientProvider client={client}>{node}</QueryClientProvider>
  );
  const view = render(wrap(<PriceGuide {...props} />));
  return {
    ...view,
    rerender: (next: PriceGuideProps) => view.rerender(wrap(<PriceGuide {...next} />)),
  };
}

describe('PriceGuide', () => {
  it('shows nothing and asks nothing until the model and storage are set', async () => {
    const { fetch } = stubGuide(GUIDE);
    const { container, rerender } = renderGuide({ modelName: '', storage: '128 GB' });
    expect(container).toBeEmptyDOMElement();
    rerender({ modelName: 'iPhone 13', storage: '' });
    expect(container).toBeEmptyDOMElement();
    await new Promise((r) => setTimeout(r, 500));
    expect(fetch).not.toHaveBeenCalled();
  });

  it('answers the median, range and count, and charts the prices with the seller’s marked', async () => {
    const { urls } = stubGuide(GUIDE);
    renderGuide({ modelName: 'iPhone 13', storage: '128 GB', condition: 'Good', price: 449 });
    expect(
      await screen.findByText(
        'Phones like yours sold for $474 (median), $455\u2060–\u2060$499, 6 sales in the last 90 days.',
      ),
    ).toBeInTheDocument();
    const chart = screen.getByRole('img', {
      name: 'Chart of 6 sale prices from $455 to $499, median $474. Your price, $449, is below the median.',
    });
    expect(chart.querySelectorAll('circle')).toHaveLength(6);
    expect(chart).toHaveTextContent('Your price $449');
    const [url] = urls();
    expect(url?.pathname).toBe('/api/price-guide');
    expect(Object.fromEntries(url?.searchParams ?? [])).toEqual({
      modelName: 'iPhone 13',
      storage: '128 GB',
      condition: 'Good',
    });
  });

  it('says when the figures are of the same condition', async () => {
    stubGuide({
      ...GUIDE,
      basis: 'model-storage-condition',
      count: 5,
      prices: GUIDE.prices.slice(1),
    });
    renderGuide({ modelName: 'iPhone 14', storage: '128 GB', condition: 'Good' });
    expect(
      await screen.findByText(/5 sales of this condition in the last 90 days\.$/),
    ).toBeInTheDocument();
    // No price typed: no price on the chart.
    expect(screen.getByRole('img').getAttribute('aria-label')).not.toMatch(/Your price/);
  });

  it('says so when nothing like it sold', async () => {
    stubGuide({ ...GUIDE, count: 0, median: null, low: null, high: null, prices: [] });
    renderGuide({ modelName: 'Nokia 3310', storage: '32 GB' });
    expect(
      await screen.findByText('No sales of this model and storage in the last 90 days yet.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
  });

  it('shows a quiet placeholder while it loads', async () => {
    let answer: (r: Response) => void = () => {};
    const { fetch } = stubGuide(() => new Promise<Response>((resolve) => (answer = resolve)));
    renderGuide({ modelName: 'iPhone 13', storage: '128 GB' });
    expect(screen.getByRole('region', { name: 'Price guide' })).toHaveTextContent(
      'Looking up what phones like yours sold for…',
    );
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    answer(Response.json(GUIDE));
    expect(await screen.findByText(/sold for \$474/)).toBeInTheDocument();
  });

  it('waits for the model name to rest: typing asks once, for what was typed last', async () => {
    const { fetch, urls } = stubGuide(GUIDE);
    // As on Add A Product: the storage chosen, the model typed a key at a time.
    const { rerender } = renderGuide({ modelName: '', storage: '128 GB' });
    for (const typed of [
      'i',
      'iP',
      'iPh',
      'iPho',
      'iPhon',
      'iPhone',
      'iPhone ',
      'iPhone 1',
      'iPhone 13',
    ])
      rerender({ modelName: typed, storage: '128 GB' });
    expect(await screen.findByText(/sold for \$474/)).toBeInTheDocument();
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(urls()[0]?.searchParams.get('modelName')).toBe('iPhone 13');
  });

  it('shows the model’s price history under the guide, with where the typed price stands', async () => {
    const { historyUrls } = stubGuide(GUIDE, {
      ...NO_HISTORY,
      count: 6,
      low: 455,
      high: 499,
      points: [
        { week: '2026-09-07', count: 3, median: 469, low: 455, high: 479 },
        { week: '2026-11-02', count: 3, median: 489, low: 479, high: 499 },
      ],
      typical: { basis: 'model-storage', days: 90, count: 6, low: 462, median: 474, high: 486 },
      verdict: 'low',
    });
    renderGuide({ modelName: 'iPhone 13', storage: '128 GB', condition: 'Good', price: 449 });
    expect(
      await screen.findByText(
        '$449 is a low price for this phone: similar ones usually sold for $462\u2060–\u2060$486 in the last 90 days.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('img', { name: /^Chart of sold prices by week/ })).toHaveTextContent(
      'Your price $449',
    );
    expect(Object.fromEntries(historyUrls().at(-1)?.searchParams ?? [])).toEqual({
      modelName: 'iPhone 13',
      storage: '128 GB',
      condition: 'Good',
      price: '449',
    });
  });

  it('says when there are too few sales to chart', async () => {
    stubGuide(GUIDE);
    renderGuide({ modelName: 'iPhone 13', storage: '128 GB' });
    expect(await screen.findByText('Not enough sales yet to chart.')).toBeInTheDocument();
  });
});
