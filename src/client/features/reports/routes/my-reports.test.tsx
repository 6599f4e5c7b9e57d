import type { MyReport } from '@shared/risk';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { myReportsQueryOptions } from '../api/my-reports';
import { MyReportsRoute } from './my-reports';

const VIEWER = 'bea@example.com';
vi.mock('@client/lib/auth/use-auth', () => ({
  useAuth: () => ({ loading: false, user: { uid: 'u1', email: VIEWER, displayName: 'Bea' } }),
}));

const id = (n: number) => `7b0a3c1e-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`;
const report = (n: number, changes: Partial<MyReport> = {}): MyReport => ({
  _id: id(n),
  target: { kind: 'listing', id: id(50 + n), name: `iPhone 1${n} (128 GB, Good)` },
  reason: 'scam',
  note: '',
  status: 'open',
  createdAt: '2026-11-20T10:00:00.000Z',
  decidedAt: null,
  ...changes,
});

function renderPage(reports: MyReport[]) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(myReportsQueryOptions(VIEWER).queryKey, reports);
  const router = createMemoryRouter([{ path: '/dashboard/reports', Component: MyReportsRoute }], {
    initialEntries: ['/dashboard/reports'],
  });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

describe('My reports (issue 34)', () => {
  it('lists what was reported, why, when, and what became of it', () => {
    renderPage([
      report(1, { note: 'Same photos as another phone' }),
      report(2, {
        target: { kind: 'seller', id: id(99), name: 'Sam' },
        reason: 'offensive',
        status: 'upheld',
        decidedAt: '2026-11-22T10:00:00.000Z',
      }),
      report(3, {
        target: { kind: 'listing', id: null, name: 'Pixel 8 (256 GB, Fair)' },
        reason: 'wrong-details',
        status: 'dismissed',
        decidedAt: '2026-11-23T10:00:00.000Z',
      }),
    ]);
    expect(screen.getByRole('heading', { level: 1, name: 'My reports' })).toBeInTheDocument();
    const items = screen.getAllByRole('listitem');
    expect(items).toHaveLength(3);

    const first = screen.getByRole('listitem', { name: 'iPhone 11 (128 GB, Good)' });
    expect(within(first).getByRole('link', { name: 'iPhone 11 (128 GB, Good)' })).toHaveAttribute(
      'href',
      `/product/${id(51)}`,
    );
    expect(first).toHaveTextContent('Scam, or too good to be true');
    expect(first).toHaveTextContent('Nov 20, 2026');
    expect(first).toHaveTextContent('Open');
    expect(first).toHaveTextContent('Same photos as another phone');

    const second = screen.getByRole('listitem', { name: 'Sam' });
    expect(within(second).getByRole('link', { name: 'Sam' })).toHaveAttribute(
      'href',
      `/seller/${id(99)}`,
    );
    expect(second).toHaveTextContent('Seller');
    expect(second).toHaveTextContent('Action taken');
    expect(second).toHaveTextContent('Decided Nov 22, 2026');

    // A listing deleted since: named as it was, with no link.
    const third = items[2] as HTMLElement;
    expect(within(third).queryByRole('link')).not.toBeInTheDocument();
    expect(third).toHaveTextContent('Pixel 8 (256 GB, Fair)');
    expect(third).toHaveTextContent('No action');
    expect(third).toHaveTextContent('Wrong details');
  });

  it('says how to report when there is nothing yet', () => {
    renderPage([]);
    expect(screen.getByRole('heading', { name: 'You have not reported anything' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Browse phones' })).toHaveAttribute('href', '/');
    expect(screen.queryByRole('listitem')).not.toBeInTheDocument();
  });
});
