import { clientConfigQueryOptions } from '@client/lib/client-config';
import type { ClientConfig } from '@shared/api';
import type { PayoutSummary } from '@shared/entities';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster } from 'react-hot-toast';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { payoutsQueryOptions, refreshAfter } from '../api/payouts';
import { PayoutsRoute } from './payouts';

const VIEWER = 'maya@example.com';

vi.mock('@client/lib/auth/use-auth', () => ({
  useAuth: () => ({ loading: false, user: { uid: 'u1', email: VIEWER, displayName: 'Maya' } }),
}));

const fetchMock = vi.fn();
beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  // The toaster asks whether motion is reduced; jsdom has no media queries.
  vi.stubGlobal('matchMedia', () => ({ matches: false }));
});
afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

const CONFIG: ClientConfig = {
  identity: { google: false },
  payments: { provider: 'embedded', publishableKey: null },
  fees: { percent: 5, minCents: 0 },
  payouts: { provider: 'embedded', schedule: 'daily', accountHoldHours: 24 },
  images: { provider: 'embedded', uploadUrl: '/api/images' },
};

const WEEKS = Array.from({ length: 12 }, (_, i) => ({
  weekStart: new Date(Date.UTC(2026, 8, 7 + i * 7)).toISOString().slice(0, 10),
  net: i === 10 ? 712.5 : i === 11 ? 237.5 : 0,
}));

const ID = (n: number) => `7b0a3c1e-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`;

const SUMMARY: PayoutSummary = {
  pending: 237.5,
  frozen: 0,
  available: 0,
  sending: 0,
  paidOut: 712.5,
  account: {
    kind: 'bank',
    label: 'Bank account •••• 6789',
    status: 'active',
    payoutsHeldUntil: null,
    addedAt: '2026-11-02T10:00:00.000Z',
  },
  nextPayoutAt: '2026-11-27T00:00:00.000Z',
  schedule: 'daily',
  payouts: [
    {
      _id: ID(1),
      amount: 712.5,
      status: 'paid',
      failureReason: null,
      createdAt: '2026-11-20T00:00:00.000Z',
      settledAt: '2026-11-20T00:00:05.000Z',
      sales: [{ orderId: ID(2), productName: 'Galaxy S23 Ultra', net: 712.5 }],
    },
    {
      _id: ID(3),
      amount: 120,
      status: 'failed',
      failureReason: 'insufficient funds',
      createdAt: '2026-11-18T00:00:00.000Z',
      settledAt: '2026-11-18T00:00:05.000Z',
      sales: [{ orderId: ID(4), productName: 'Pixel Seven', net: 120 }],
    },
  ],
  weeks: WEEKS,
};

function renderPayouts(summary: PayoutSummary, config: ClientConfig = CONFIG) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(payoutsQueryOptions(VIEWER).queryKey, summary);
  queryClient.setQueryData(clientConfigQueryOptions().queryKey, config);
  const router = createMemoryRouter([{ path: '/', Component: PayoutsRoute }]);
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <Toaster />
    </QueryClientProvider>,
  );
}

const figure = (label: string) =>
  screen.getByText(label, { selector: 'dt' }).parentElement as HTMLElement;

describe('the Payouts page', () => {
  it('shows the figures, the next payout, the account and the payouts with their sales', () => {
    renderPayouts(SUMMARY);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Payouts');
    expect(within(figure('Pending')).getByText('$237.50')).toBeInTheDocument();
    expect(within(figure('Available')).getByText('$0.00')).toBeInTheDocument();
    expect(within(figure('On its way')).getByText('$0.00')).toBeInTheDocument();
    expect(within(figure('Paid out')).getByText('$712.50')).toBeInTheDocument();
    // Frozen only when something is.
    expect(screen.queryByText('Frozen', { selector: 'dt' })).not.toBeInTheDocument();
    expect(screen.getByText(/^Next payout: Nov 2[67], 2026/)).toBeInTheDocument();
    expect(screen.getByText('Bank account •••• 6789')).toBeInTheDocument();
    expect(screen.getByText('Active')).toBeInTheDocument();

    const payouts = screen.getByRole('region', { name: 'Payouts so far' });
    const paid = within(payouts).getAllByRole('listitem')[0] as HTMLElement;
    expect(within(paid).getByText('Paid')).toBeInTheDocument();
    expect(within(paid).getByRole('link', { name: 'Galaxy S23 Ultra' })).toHaveAttribute(
      'href',
      `/dashboard/orders/${ID(2)}`,
    );
  });

  it('shows a failed payout with the reason the bank gave', () => {
    renderPayouts(SUMMARY);
    expect(
      screen.getByText('Not paid: insufficient funds. The money is back in your balance.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Failed')).toBeInTheDocument();
  });

  it('tells a seller with no account to add one, and shows the test bank form with its numbers', () => {
    renderPayouts({ ...SUMMARY, account: null, nextPayoutAt: null, available: 57 });
    expect(screen.getByText('Add a payout account to be paid')).toBeInTheDocument();
    expect(screen.queryByText(/^Next payout/)).not.toBeInTheDocument();
    expect(screen.getByLabelText('Routing number')).toBeInTheDocument();
    expect(screen.getByLabelText('Account number')).toBeInTheDocument();
    expect(screen.getByLabelText('Your password')).toHaveAttribute('type', 'password');
    expect(screen.getByText(/000123456789 is paid/)).toBeInTheDocument();
    // A first account holds nothing: no warning.
    expect(screen.queryByText(/holds payouts for 24 hours/)).not.toBeInTheDocument();
  });

  it('explains a negative balance as money taken back after a refund', () => {
    renderPayouts({ ...SUMMARY, available: -40 });
    expect(within(figure('Available')).getByText('-$40.00')).toBeInTheDocument();
    expect(
      screen.getByText(
        'You owe $40.00: money paid out to you was taken back after a refund. It is recovered from your next sales.',
      ),
    ).toBeInTheDocument();
  });

  it('shows Frozen when a report holds money', () => {
    renderPayouts({ ...SUMMARY, frozen: 95 });
    expect(within(figure('Frozen')).getByText('$95.00')).toBeInTheDocument();
  });

  it('draws twelve weeks as one image named by its summary, with the figures in a table', () => {
    renderPayouts(SUMMARY);
    const chart = screen.getByRole('img', { name: /^Earnings by week, the last 12 weeks/ });
    expect(chart).toHaveAccessibleName(
      'Earnings by week, the last 12 weeks: $950.00 in all, the most $712.50 in the week of Nov 16.',
    );
    expect(chart.querySelectorAll('rect.fill-primary')).toHaveLength(12);
    const table = screen.getByRole('table');
    expect(within(table).getAllByRole('row')).toHaveLength(13);
    expect(within(table).getByText('$712.50')).toBeInTheDocument();
  });

  it('warns before a change, sends the numbers and the password, and tells the hold after', async () => {
    const changed = {
      kind: 'bank',
      label: 'Bank account •••• 6789',
      status: 'active',
      payoutsHeldUntil: new Date(Date.now() + 86_400_000).toISOString(),
      addedAt: new Date().toISOString(),
    } as const;
    // The save, then the page's figures asked again with the account as it now is.
    fetchMock.mockImplementation(async (_url: string, init: RequestInit) =>
      Response.json(init.method === 'PUT' ? changed : { ...SUMMARY, account: changed }),
    );
    renderPayouts(SUMMARY);
    await userEvent.click(screen.getByRole('button', { name: 'Change the payout account' }));
    expect(
      screen.getByText(
        'Changing the account asks for your password, e-mails you, and holds payouts for 24 hours.',
      ),
    ).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Routing number'), '110000000');
    await userEvent.type(screen.getByLabelText('Account number'), '0001 2345 6789');
    await userEvent.type(screen.getByLabelText('Your password'), 'Secret-Pass1!');
    await userEvent.click(screen.getByRole('button', { name: 'Save payout account' }));
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/payouts/account');
    expect(init.method).toBe('PUT');
    expect(JSON.parse(String(init.body))).toEqual({
      routingNumber: '110000000',
      accountNumber: '000123456789',
      password: 'Secret-Pass1!',
    });
    expect(
      await screen.findByText(/^Payout account changed. Payouts are held until/),
    ).toBeInTheDocument();
    expect(await screen.findByText(/^Payouts held until/)).toBeVisible();
    expect(screen.queryByLabelText('Routing number')).not.toBeInTheDocument();
  });

  it('checks the numbers before sending anything', async () => {
    renderPayouts({ ...SUMMARY, account: null });
    await userEvent.type(screen.getByLabelText('Routing number'), '1100');
    await userEvent.click(screen.getByRole('button', { name: 'Save payout account' }));
    expect(screen.getByText('Enter the 9 digits of the routing number.')).toBeInTheDocument();
    expect(screen.getByText('Enter the account number: 4 to 17 digits.')).toBeInTheDocument();
    expect(screen.getByText('Enter your password.')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("with Stripe, asks the password and sends the browser to Stripe's onboarding", async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    fetchMock.mockResolvedValue(Response.json({ url: 'https://connect.stripe.test/setup/abc' }));
    renderPayouts(
      { ...SUMMARY, account: null, nextPayoutAt: null },
      { ...CONFIG, payouts: { provider: 'stripe', schedule: 'daily', accountHoldHours: 24 } },
    );
    expect(screen.queryByLabelText('Routing number')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Set up payouts with Stripe' }));
    await userEvent.type(screen.getByLabelText('Your password'), 'Secret-Pass1!');
    await userEvent.click(screen.getByRole('button', { name: 'Continue with Stripe' }));
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/payouts/account/stripe');
    expect(JSON.parse(String(init.body))).toEqual({ password: 'Secret-Pass1!' });
    expect(assign).toHaveBeenCalledWith('https://connect.stripe.test/setup/abc');
  });
});

describe('refreshAfter', () => {
  const now = Date.parse('2026-11-27T10:00:00.000Z');
  it('asks soon while a payout is on its way, and just after the next one is due', () => {
    expect(refreshAfter({ ...SUMMARY, sending: 10 }, now)).toBe(5_000);
    expect(refreshAfter({ ...SUMMARY, nextPayoutAt: '2026-11-27T10:00:03.000Z' }, now)).toBe(4_000);
    expect(refreshAfter({ ...SUMMARY, nextPayoutAt: '2026-11-28T00:00:00.000Z' }, now)).toBe(
      300_000,
    );
    expect(refreshAfter({ ...SUMMARY, nextPayoutAt: null }, now)).toBe(false);
  });
});
