import { clientConfigQueryOptions } from '@client/lib/client-config';
import type { Sale } from '@shared/entities';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mySalesQueryOptions } from '../api/sales';
import { MySalesRoute } from './my-sales';

const VIEWER = 'maya@example.com';

vi.mock('@client/lib/auth/use-auth', () => ({
  useAuth: () => ({ loading: false, user: { uid: 'u1', email: VIEWER, displayName: 'Maya' } }),
}));

beforeEach(() => vi.stubGlobal('fetch', vi.fn()));
afterEach(() => vi.unstubAllGlobals());

const id = (n: number) => `7b0a3c1e-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`;

const sale = (n: number, productName: string, changes: Partial<Sale>): Sale => ({
  _id: id(n),
  productId: id(n + 50),
  productName,
  image: '/images/0123456789abcdef0123456789abcdef-640.webp',
  price: 1200,
  status: 'paid',
  stage: 'paid',
  side: 'seller',
  actions: ['handover'],
  meetingPoint: 'City Library',
  bookedAt: '2026-11-20T10:00:00.000Z',
  paidAt: '2026-11-20T11:00:00.000Z',
  holdExpiresAt: '2026-11-27T11:00:00.000Z',
  completedAt: null,
  endedAt: null,
  cancelledBy: null,
  soldElsewhere: false,
  buyer: {
    name: 'Bea Buyer',
    email: 'bea@example.com',
    number: '+1 303 555 0142',
    rating: { average: null, count: 0 },
  },
  seller: {
    name: 'Maya Chen',
    email: VIEWER,
    number: '+1 512 555 0143',
    rating: { average: null, count: 0 },
  },
  handoverCode: null,
  imeiLast4: null,
  handoverLockedUntil: null,
  transactionId: 'pi_test_1',
  money: 'held',
  dispute: null,
  ratings: { byBuyer: null, bySeller: null },
  fee: null,
  net: null,
  sellerMoney: null,
  ...changes,
});

function renderMySales(sales: Sale[]) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(mySalesQueryOptions(VIEWER).queryKey, {
    pages: [{ data: sales, next: null }],
    pageParams: [null],
  });
  queryClient.setQueryData(clientConfigQueryOptions().queryKey, {
    identity: { google: false },
    payments: { provider: 'embedded', publishableKey: null },
    fees: { percent: 5, minCents: 0 },
    payouts: { provider: 'embedded', schedule: 'daily', accountHoldHours: 24 },
    images: { provider: 'embedded', uploadUrl: '/api/images' },
  });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={createMemoryRouter([{ path: '/', Component: MySalesRoute }])} />
    </QueryClientProvider>,
  );
}

const cellOf = (productName: string, column: string) => {
  const row = screen.getByRole('row', { name: new RegExp(productName) });
  const index = within(screen.getByRole('table'))
    .getAllByRole('columnheader')
    .findIndex((h) => h.textContent === column);
  return row.querySelectorAll('th, td')[index] as HTMLElement;
};

describe('My Sales, the money of each sale (issue 30)', () => {
  it("shows each sale's price, fee and net: expected before the handover, its own after", () => {
    renderMySales([
      sale(1, 'Pixel Waiting', {}),
      sale(2, 'Pixel Done', {
        stage: 'completed',
        status: 'paid',
        actions: [],
        money: 'captured',
        price: 250,
        fee: 12.5,
        net: 237.5,
        sellerMoney: 'paid',
      }),
      sale(3, 'Pixel Cancelled', { stage: 'cancelled', actions: [], money: 'released' }),
    ]);
    expect(cellOf('Pixel Waiting', 'Stage')).toHaveTextContent(
      'Paid, waiting for the handoverNet $1,140.00 (expected)$1,200.00 less $60.00 fee',
    );
    expect(cellOf('Pixel Done', 'Stage')).toHaveTextContent(
      /^Handed overNet \$237\.50\$250\.00 less \$12\.50 feeYour money: Paid out$/,
    );
    // A sale that ended before a handover pays no fee.
    expect(cellOf('Pixel Cancelled', 'Stage')).toHaveTextContent(/^Cancelled$/);
  });

  it('names where the money is: pending, frozen, available, on its way, refunded', () => {
    const states = ['pending', 'frozen', 'available', 'sending', 'refunded'] as const;
    renderMySales(
      states.map((state, i) =>
        sale(i + 1, `Phone ${state}`, {
          stage: 'completed',
          actions: [],
          fee: 60,
          net: 1140,
          sellerMoney: state,
        }),
      ),
    );
    const names = ['Pending', 'Frozen (reported)', 'Available', 'On its way', 'Refunded'];
    states.forEach((state, i) => {
      expect(cellOf(`Phone ${state}`, 'Stage')).toHaveTextContent(`Your money: ${names[i]}`);
    });
  });
});
