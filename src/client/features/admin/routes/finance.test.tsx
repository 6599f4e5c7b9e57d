import type { Finance } from '@shared/entities';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { financeQueryOptions } from '../api/finance';
import { FinanceRoute, financeLoader } from './finance';

const fetchMock = vi.fn();
beforeEach(() => vi.stubGlobal('fetch', fetchMock));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  fetchMock.mockReset();
});

const day = (i: number) => new Date(Date.UTC(2026, 9, 28 + i)).toISOString().slice(0, 10);

const financeOf = (days: number): Finance => ({
  from: day(0),
  to: day(days - 1),
  days: Array.from({ length: days }, (_, i) => ({
    day: day(i),
    sales: i === days - 1 ? 2 : 0,
    volume: i === days - 1 ? 1450 : 0,
    fees: i === days - 1 ? 72.5 : 0,
    refunds: 0,
    paidOut: i === days - 1 ? 237.5 : 0,
    failedPayouts: i === days - 1 ? 1 : 0,
  })),
  now: {
    held: 250,
    pending: 1140,
    frozen: 95,
    available: -40,
    sending: 0,
    failedPayouts: 1,
    sellersWithoutAccount: 3,
  },
});

function renderFinance(path = '/dashboard/finance') {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(financeQueryOptions(30).queryKey, financeOf(30));
  const router = createMemoryRouter(
    [{ path: '/dashboard/finance', Component: FinanceRoute, loader: financeLoader(queryClient) }],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

const figure = (label: string) =>
  screen.getByText(label, { selector: 'dt' }).parentElement as HTMLElement;

describe('the Finance page', () => {
  it("shows where the money is now, the period's totals, a chart and a table by day", async () => {
    renderFinance();
    expect(await screen.findByRole('heading', { level: 1, name: 'Finance' })).toBeInTheDocument();
    expect(within(figure('Held on cards')).getByText('$250.00')).toBeInTheDocument();
    expect(within(figure('Pending for sellers')).getByText('$1,140.00')).toBeInTheDocument();
    expect(within(figure('Owed to sellers')).getByText('-$40.00')).toBeInTheDocument();
    expect(within(figure('Sellers without a payout account')).getByText('3')).toBeInTheDocument();
    expect(within(figure('Fees earned')).getByText('$72.50')).toBeInTheDocument();
    const chart = screen.getByRole('img', { name: /^Sales volume and fees by day/ });
    expect(chart).toHaveAccessibleName(
      'Sales volume and fees by day, the last 30 days: $1,450.00 of sales, $72.50 in fees, the busiest day Nov 26, 2026 with $1,450.00.',
    );
    const rows = within(screen.getByRole('table')).getAllByRole('row');
    expect(rows).toHaveLength(31);
    // Newest first.
    expect(rows[1]).toHaveTextContent('Nov 26, 2026');
    expect(rows[1]).toHaveTextContent('$1,450.00');
    expect(screen.getByRole('link', { name: '30 days' })).toHaveAttribute('aria-current', 'page');
  });

  it('loads the period chosen', async () => {
    fetchMock.mockImplementation(async () => Response.json(financeOf(7)));
    const router = renderFinance();
    await userEvent.click(await screen.findByRole('link', { name: '7 days' }));
    expect(await screen.findByRole('heading', { name: 'The last 7 days' })).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith('/api/finance?days=7', expect.anything());
    expect(router.state.location.search).toBe('?days=7');
    expect(within(screen.getByRole('table')).getAllByRole('row')).toHaveLength(8);
  });

  it('downloads the CSV of the period with the token, as a file', async () => {
    localStorage.setItem('accessToken', 'token-abc');
    const csv = 'day,sales,volume\n2026-11-26,2,1450.00\n';
    fetchMock.mockImplementation(
      async () => new Response(csv, { headers: { 'content-type': 'text/csv; charset=utf-8' } }),
    );
    // jsdom has no object URLs: these stand in for the browser's.
    const createObjectURL = vi.fn((_blob: Blob) => 'blob:finance');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    renderFinance();
    await userEvent.click(await screen.findByRole('button', { name: 'Download CSV' }));
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/finance.csv?days=30');
    expect((init.headers as Record<string, string>).authorization).toBe('bearer token-abc');
    const blob = createObjectURL.mock.calls[0]?.[0] as Blob;
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(blob);
    });
    expect(text).toBe(csv);
    const link = click.mock.contexts[0] as HTMLAnchorElement;
    expect(link.href).toBe('blob:finance');
    expect(link.download).toBe('finance-2026-10-28-to-2026-11-26.csv');
    localStorage.removeItem('accessToken');
    Object.assign(URL, { createObjectURL: undefined, revokeObjectURL: undefined });
  });
});
