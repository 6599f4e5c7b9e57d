import type { OwnProduct } from '@shared/entities';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { myProductsQueryOptions } from '../api/my-products';
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

describe('My Products (issue 31: no dead ends)', () => {
  it('links each phone to its own page, as buyers see it', () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const one = '7b0a3c1e-0000-4000-8000-000000000001';
    const two = '7b0a3c1e-0000-4000-8000-000000000002';
    queryClient.setQueryData(myProductsQueryOptions(VIEWER).queryKey, [
      phone(one, 'Galaxy S23 Ultra'),
      { ...phone(two, 'Pixel 8'), status: 'sold' },
    ]);
    render(
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={createMemoryRouter([{ path: '/', Component: MyProductsRoute }])} />
      </QueryClientProvider>,
    );
    const table = screen.getByRole('table');
    expect(within(table).getByRole('link', { name: 'Galaxy S23 Ultra' })).toHaveAttribute(
      'href',
      `/product/${one}`,
    );
    expect(within(table).getByRole('link', { name: 'Pixel 8' })).toHaveAttribute(
      'href',
      `/product/${two}`,
    );
  });

  it('shows a held phone under review, with no link to a page buyers do not have (issue 34)', () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const held = '7b0a3c1e-0000-4000-8000-000000000003';
    queryClient.setQueryData(myProductsQueryOptions(VIEWER).queryKey, [
      { ...phone(held, 'iPhone 15'), status: 'held' },
    ]);
    render(
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={createMemoryRouter([{ path: '/', Component: MyProductsRoute }])} />
      </QueryClientProvider>,
    );
    const row = within(screen.getByRole('table')).getByRole('row', { name: /iPhone 15/ });
    expect(row).toHaveTextContent('Under review');
    expect(within(row).queryByRole('link', { name: 'iPhone 15' })).toBeNull();
    // Nothing that needs it for sale: no advertising, no relisting.
    expect(within(row).queryByRole('button', { name: /Avertise/ })).toBeNull();
  });
});
