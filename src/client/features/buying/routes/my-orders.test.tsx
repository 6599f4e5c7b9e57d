import type { Order } from '@shared/entities';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { myOrdersQueryOptions } from '../api/orders';
import { MyOrdersRoute } from './my-orders';

const VIEWER = 'bea@example.com';

vi.mock('@client/lib/auth/use-auth', () => ({
  useAuth: () => ({ loading: false, user: { uid: 'u1', email: VIEWER, displayName: 'Bea' } }),
}));

beforeEach(() => vi.stubGlobal('fetch', vi.fn()));
afterEach(() => vi.unstubAllGlobals());

const id = (n: number) => `7b0a3c1e-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`;

const order = (n: number, productName: string, changes: Partial<Order>): Order => ({
  _id: id(n),
  userName: 'Bea',
  productName,
  price: 1200,
  email: VIEWER,
  location: 'City Library',
  number: '+1 303 555 0142',
  productId: id(n + 50),
  image: '/images/0123456789abcdef0123456789abcdef-640.webp',
  status: 'paid',
  stage: 'paid',
  soldElsewhere: false,
  ...changes,
});

function renderMyOrders(orders: Order[]) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(myOrdersQueryOptions(VIEWER).queryKey, orders);
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={createMemoryRouter([{ path: '/', Component: MyOrdersRoute }])} />
    </QueryClientProvider>,
  );
}

const payCell = (productName: string) => {
  const row = screen.getByRole('row', { name: new RegExp(productName) });
  const index = within(screen.getByRole('table'))
    .getAllByRole('columnheader')
    .findIndex((h) => h.textContent === 'Pay');
  return row.querySelectorAll('th, td')[index] as HTMLElement;
};

describe('My Orders, one word per state (issue 31)', () => {
  it('never says "paid" on an order whose money went back', () => {
    renderMyOrders([
      order(1, 'Pixel Cancelled', { stage: 'cancelled' }),
      order(2, 'Pixel Expired', { stage: 'expired' }),
      order(3, 'Pixel Refunded', { stage: 'refunded' }),
    ]);
    for (const [name, text] of [
      ['Pixel Cancelled', 'Cancelled, money released'],
      ['Pixel Expired', 'Expired, money released'],
      ['Pixel Refunded', 'Refunded'],
    ] as const) {
      const cell = payCell(name);
      expect(cell).toHaveTextContent(new RegExp(`^${text}$`));
      expect(within(cell).queryByText('paid')).toBeNull();
      expect(cell.querySelector('.badge-success')).toBeNull();
    }
  });

  it("shows the spec's 'paid' with where the sale is while the payment stands", () => {
    renderMyOrders([
      order(1, 'Pixel Waiting', { stage: 'paid' }),
      order(2, 'Pixel Done', { stage: 'completed' }),
      order(3, 'Pixel Reported', { stage: 'disputed' }),
    ]);
    expect(payCell('Pixel Waiting')).toHaveTextContent(/^paidWaiting for the handover$/);
    expect(payCell('Pixel Done')).toHaveTextContent(/^paidHanded over$/);
    expect(payCell('Pixel Reported')).toHaveTextContent(/^paidProblem reported$/);
    expect(within(payCell('Pixel Done')).getByText('paid')).toHaveClass('badge-success');
    expect(within(payCell('Pixel Reported')).getByText('paid')).toHaveClass('badge-warning');
  });

  it('offers Pay on a booked order', () => {
    renderMyOrders([order(1, 'Pixel Booked', { stage: 'booked', status: 'unpaid' })]);
    expect(within(payCell('Pixel Booked')).getByRole('link', { name: /Pay/ })).toHaveAttribute(
      'href',
      `/dashboard/payment/${id(1)}`,
    );
  });
});
