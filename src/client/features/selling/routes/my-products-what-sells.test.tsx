import type { OwnProduct, WhatSells } from '@shared/entities';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { myProductsQueryOptions } from '../api/my-products';
import { whatSellsQueryOptions } from '../api/what-sells';
import { MyProductsRoute } from './my-products';

const VIEWER = 'maya@example.com';

vi.mock('@client/lib/auth/use-auth', () => ({
  useAuth: () => ({ loading: false, user: { uid: 'u1', email: VIEWER, displayName: 'Maya' } }),
}));

beforeEach(() => vi.stubGlobal('fetch', vi.fn()));
afterEach(() => vi.unstubAllGlobals());

const phone = (id: string, modelName: string): OwnProduct => ({
  _id: id,
  modelName,
  image: '/images/0123456789abcdef0123456789abcdef-640.webp',
  originalPrice: 1199,
  resellPrice: 829.5,
  location: 'Seattle, WA',
  description: 'With S Pen, no burn-in.',
  timeOfPost: '2026-11-02T09:30:00.000Z',
  timeUsed: 10,
  condition: 'Flawless',
  sellerName: 'Maya Chen',
  categoryId: '02',
  userStatus: 'verified',
  status: 'available',
  sellerRating: { average: null, count: 0 },
  sellerId: '7b0a3c1e-0000-4000-8000-0000000000aa',
  photos: ['/images/0123456789abcdef0123456789abcdef-640.webp'],
  specificatons: { ram: '12 GB', storage: '1 GTB', color: 'Green', battery: 5000 },
  batteryHealth: null,
  imeiChecked: false,
  previousPrice: null,
  priceNote: null,
  sellerNumber: '+1 512 555 0143',
  email: VIEWER,
  imei: null,
  advertised: false,
  imeiBlocked: false,
});

const ONE = '7b0a3c1e-0000-4000-8000-000000000001';

const figures: WhatSells = {
  listings: [{ _id: ONE, views: 12, wishLists: 3, questions: 1, bookings: 0, daysListed: 5 }],
  models: [
    { modelName: 'Galaxy S23 Ultra', storage: '1 GTB', medianDaysToSell: 4, quickSalePrice: 812.5 },
    { modelName: 'Pixel 8', storage: '128 GB', medianDaysToSell: null, quickSalePrice: null },
  ],
  days: 90,
  quickDays: 7,
  // Twelve Mondays from Sep 7, 2026.
  weeks: Array.from({ length: 12 }, (_, i) => ({
    week: new Date(Date.UTC(2026, 8, 7 + i * 7)).toISOString().slice(0, 10),
    views: i * 2,
    sales: i % 3 === 0 ? 1 : 0,
  })),
};

function renderPage(withFigures = true) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(myProductsQueryOptions(VIEWER).queryKey, [
    phone(ONE, 'Galaxy S23 Ultra'),
  ]);
  if (withFigures) queryClient.setQueryData(whatSellsQueryOptions().queryKey, figures);
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={createMemoryRouter([{ path: '/', Component: MyProductsRoute }])} />
    </QueryClientProvider>,
  );
}

describe('My Products: what sells (issue 35)', () => {
  it('shows each listing its views, wish lists, questions, bookings and days listed', () => {
    renderPage();
    const list = screen.getByRole('list', { name: 'Interest' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['12 views', '3 wish lists', '1 question', '0 bookings', 'listed 5 days']);
    // The spec's columns are unchanged.
    expect(
      screen
        .getAllByRole('columnheader')
        .slice(0, 6)
        .map((th) => th.textContent),
    ).toEqual(['#', 'Name', 'Price', 'Status', 'Avertise', 'Action']);
  });

  it('shows per model the median days to sell and the quick-sale price, or not enough sales', () => {
    renderPage();
    const section = screen.getByRole('region', { name: 'What sells' });
    const table = within(section).getAllByRole('table')[0] as HTMLElement;
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([
      'Galaxy S23 Ultra1 TB4 days$812.50',
      'Pixel 8128 GBNot enough sales yetNot enough sales yet',
    ]);
  });

  it('draws views and sales by week apart by shape, named, with the figures as a table', () => {
    renderPage();
    const chart = screen.getByRole('img', { name: /Chart of your views and sales by week/ });
    expect(chart.getAttribute('aria-label')).toContain('132 views and 4 sales in all');
    expect(chart.querySelectorAll('[data-part="views"]')).toHaveLength(12);
    expect(chart.querySelectorAll('[data-part="sales"]')).toHaveLength(12);
    expect(chart.querySelector('polyline')?.getAttribute('stroke-dasharray')).toBe('5 3');
    expect(screen.getByText('Views and sales by week as a table')).toBeDefined();
    expect(screen.getByRole('rowheader', { name: 'Week of Sep 7', hidden: true })).toBeDefined();
  });

  it('shows the table at once while the figures are not there yet', () => {
    renderPage(false);
    expect(screen.getByRole('link', { name: 'Galaxy S23 Ultra' })).toBeDefined();
    expect(screen.queryByRole('region', { name: 'What sells' })).toBeNull();
  });
});
