import type { Overview } from '@shared/entities';
import { addDays, lastDays, utcDay } from '@shared/overview';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { overviewQueryOptions } from '../api/overview';
import { OverviewRoute, overviewLoader } from './overview';

const fetchMock = vi.fn();
beforeEach(() => vi.stubGlobal('fetch', fetchMock));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  fetchMock.mockReset();
});

const today = utcDay(new Date());

const overviewOf = (days: number): Overview => {
  const range = lastDays(days, today);
  return {
    ...range,
    days: Array.from({ length: days }, (_, i) => {
      const last = i === days - 1;
      return {
        day: addDays(range.from, i),
        listings: last ? 3 : i === 0 ? 1 : 0,
        sales: last ? 2 : 0,
        volume: last ? 1450 : 0,
        completed: last ? 1 : 0,
        newSellers: last ? 1 : 0,
        newBuyers: last ? 4 : 0,
        disputes: 0,
        reports: last ? 1 : 0,
      };
    }),
    models: [{ model: '=HYPERLINK("http://x","y")', storage: '1 GTB', sales: 2, median: 725 }],
  };
};

function renderOverview(path = '/dashboard/overview') {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(overviewQueryOptions(lastDays(30, today)).queryKey, overviewOf(30));
  const router = createMemoryRouter(
    [
      {
        path: '/dashboard/overview',
        Component: OverviewRoute,
        loader: overviewLoader(queryClient),
      },
    ],
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

describe('the Overview page', () => {
  it('shows the totals of the last 30 days, a chart of each main figure with its sentence, the days and the busiest models', async () => {
    renderOverview();
    expect(await screen.findByRole('heading', { level: 1, name: 'Overview' })).toBeInTheDocument();
    expect(within(figure('Listings')).getByText('4')).toBeInTheDocument();
    expect(within(figure('Sales volume')).getByText('$1,450.00')).toBeInTheDocument();
    expect(within(figure('New buyers')).getByText('4')).toBeInTheDocument();
    const charts = screen.getAllByRole('img', { name: / by day: / });
    expect(charts).toHaveLength(4);
    expect(
      screen.getByRole('img', { name: /^Listings by day: 4 in all, the busiest day/ }),
    ).toBeInTheDocument();
    const byDay = screen.getByRole('region', { name: 'By day' });
    const rows = within(byDay).getAllByRole('row');
    expect(rows).toHaveLength(31);
    // Newest first, today's three listings on its row.
    expect(within(rows[1] as HTMLElement).getAllByRole('cell')[0]).toHaveTextContent('3');
    const models = screen.getByRole('region', { name: 'Busiest models' });
    const model = within(models).getByRole('row', { name: /HYPERLINK/ });
    expect(model).toHaveTextContent('1 TB');
    expect(model).toHaveTextContent('$725.00');
    expect(screen.getByRole('link', { name: '30 days' })).toHaveAttribute('aria-current', 'page');
  });

  it('loads a preset range', async () => {
    fetchMock.mockImplementation(async () => Response.json(overviewOf(7)));
    const router = renderOverview();
    await userEvent.click(await screen.findByRole('link', { name: '7 days' }));
    const { from, to } = lastDays(7, today);
    await waitFor(() =>
      expect(screen.getByRole('link', { name: '7 days' })).toHaveAttribute('aria-current', 'page'),
    );
    expect(fetchMock).toHaveBeenCalledWith(
      `/api/overview?from=${from}&to=${to}`,
      expect.anything(),
    );
    expect(router.state.location.search).toBe(`?from=${from}&to=${to}`);
    expect(within(screen.getByRole('region', { name: 'By day' })).getAllByRole('row')).toHaveLength(
      8,
    );
  });

  it('says what is wrong with a custom range without asking the server', async () => {
    renderOverview('/dashboard/overview?from=2026-03-02&to=2026-03-01');
    expect(await screen.findByRole('alert')).toHaveTextContent('from must not be after to');
    renderOverview('/dashboard/overview?from=2024-01-01&to=2026-01-01');
    expect(await screen.findByText(/to must be at most 366 days/)).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('exports the range as CSV with the token, as a file', async () => {
    localStorage.setItem('accessToken', 'token-abc');
    fetchMock.mockImplementation(
      async () =>
        new Response('day,listings\r\n', {
          headers: { 'content-type': 'text/csv; charset=utf-8' },
        }),
    );
    const createObjectURL = vi.fn((_blob: Blob) => 'blob:overview');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    renderOverview();
    await userEvent.click(await screen.findByRole('button', { name: 'Export CSV' }));
    const { from, to } = lastDays(30, today);
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe(`/api/overview.csv?from=${from}&to=${to}&table=days`);
    expect((init.headers as Record<string, string>).authorization).toBe('bearer token-abc');
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe(
      `overview-${from}-to-${to}.csv`,
    );
    localStorage.removeItem('accessToken');
    Object.assign(URL, { createObjectURL: undefined, revokeObjectURL: undefined });
  });
});
