import { clientConfigQueryOptions } from '@client/lib/client-config';
import type { Order } from '@shared/entities';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { paymentOrderQueryOptions } from '../api/payment';
import { PaymentRoute } from './payment';

vi.mock('@client/lib/auth/use-auth', () => ({
  useAuth: () => ({
    loading: false,
    user: { uid: 'u1', email: 'bea@example.com', displayName: 'Bea' },
  }),
}));

beforeEach(() => vi.stubGlobal('fetch', vi.fn()));
afterEach(() => vi.unstubAllGlobals());

const ID = '7b0a3c1e-0000-4000-8000-000000000001';

function renderPayment(changes: Partial<Order>) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(paymentOrderQueryOptions(ID).queryKey, {
    _id: ID,
    userName: 'Bea',
    productName: 'Pixel 8',
    price: 460,
    email: 'bea@example.com',
    location: 'City Library',
    number: '+1 303 555 0142',
    productId: '7b0a3c1e-0000-4000-8000-000000000051',
    image: '/images/0123456789abcdef0123456789abcdef-640.webp',
    status: 'paid',
    stage: 'paid',
    soldElsewhere: false,
    ...changes,
  } satisfies Order);
  queryClient.setQueryData(clientConfigQueryOptions().queryKey, {
    identity: { google: false },
    payments: { provider: 'embedded', publishableKey: null },
    fees: { percent: 5, minCents: 0 },
    payouts: { provider: 'embedded', schedule: 'daily', accountHoldHours: 24 },
    images: { provider: 'embedded', uploadUrl: '/api/images' },
  });
  const router = createMemoryRouter([{ path: '/dashboard/payment/:id', Component: PaymentRoute }], {
    initialEntries: [`/dashboard/payment/${ID}`],
  });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

describe('the payment page of an order past its payment (issue 31)', () => {
  it('says a cancelled order was cancelled and its hold released, not that it is paid', () => {
    renderPayment({ stage: 'cancelled' });
    expect(screen.getByText('Cancelled')).toHaveClass('badge-neutral');
    expect(screen.queryByText('paid')).toBeNull();
    expect(screen.queryByText(/is paid/)).toBeNull();
    expect(
      screen.getByText(/Your order for Pixel 8 was cancelled, and the hold on your card/),
    ).toBeInTheDocument();
  });

  it('says a refunded order was refunded', () => {
    renderPayment({ stage: 'refunded' });
    expect(screen.getByText('Refunded')).toBeInTheDocument();
    expect(screen.queryByText('paid')).toBeNull();
  });

  it('tells the buyer of a paid order what happens next', () => {
    renderPayment({ stage: 'paid' });
    expect(screen.getByText('paid')).toBeInTheDocument();
    expect(screen.getByText(/Meet the seller at City Library/)).toBeInTheDocument();
  });
});
