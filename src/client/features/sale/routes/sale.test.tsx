import { clientConfigQueryOptions } from '@client/lib/client-config';
import type { Sale } from '@shared/entities';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  createMemoryRouter,
  isRouteErrorResponse,
  RouterProvider,
  useRouteError,
} from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { saleQueryOptions } from '../api/sales';
import { SaleRoute, saleLoader } from './sale';

const VIEWER = 'viewer@example.com';

vi.mock('@client/lib/auth/use-auth', () => ({
  useAuth: () => ({ loading: false, user: { uid: 'u1', email: VIEWER, displayName: 'Viewer' } }),
}));

beforeEach(() => vi.stubGlobal('fetch', vi.fn()));
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const ID = '7b0a3c1e-0000-4000-8000-0000000000aa';

const BASE: Sale = {
  _id: ID,
  productId: '7b0a3c1e-0000-4000-8000-0000000000bb',
  productName: 'Galaxy S23 Ultra',
  image: '/images/0123456789abcdef0123456789abcdef-640.webp',
  price: 829.5,
  status: 'paid',
  stage: 'paid',
  side: 'buyer',
  actions: ['cancel'],
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
    email: 'maya@example.com',
    number: '+1 512 555 0143',
    rating: { average: 4.5, count: 12 },
  },
  handoverCode: '123456',
  imeiLast4: null,
  handoverLockedUntil: null,
  transactionId: 'pi_test_1',
  money: 'held',
  dispute: null,
  ratings: { byBuyer: null, bySeller: null },
  fee: null,
  net: null,
  sellerMoney: null,
};

/** The fee rule (issue 30) as the configuration gives it, for the pages that load it. */
const FEES = { percent: 5, minCents: 0 };

function renderSale(sale: Sale, fees?: typeof FEES) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(saleQueryOptions(VIEWER, ID).queryKey, sale);
  if (fees)
    queryClient.setQueryData(clientConfigQueryOptions().queryKey, {
      identity: { google: false },
      payments: { provider: 'embedded', publishableKey: null },
      fees,
      payouts: { provider: 'embedded', schedule: 'daily', accountHoldHours: 24 },
      images: { provider: 'embedded', uploadUrl: '/api/images' },
    });
  const router = createMemoryRouter(
    [
      { path: '/dashboard/orders/:id', Component: SaleRoute },
      { path: '/dashboard/payment/:id', element: <p>payment page</p> },
    ],
    { initialEntries: [`/dashboard/orders/${ID}`] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

describe('the order page, for its buyer', () => {
  it('shows the handover code with its warning, the seller with number and rating, and Cancel', () => {
    renderSale(BASE);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Order: Galaxy S23 Ultra');
    expect(screen.getByText('123456')).toBeInTheDocument();
    expect(
      screen.getByText('Give this code to the seller only after you have checked the phone.'),
    ).toBeInTheDocument();
    const seller = screen.getByRole('region', { name: 'Seller' });
    expect(within(seller).getByText('Maya Chen')).toBeInTheDocument();
    expect(within(seller).getByRole('link', { name: '+1 512 555 0143' })).toHaveAttribute(
      'href',
      'tel:+15125550143',
    );
    expect(within(seller).getByText('★ 4.5 (12)')).toBeInTheDocument();
    expect(screen.getByText('City Library')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancel sale' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /^Pay/ })).not.toBeInTheDocument();
  });

  it('offers Pay while booked, and no number yet', () => {
    renderSale({
      ...BASE,
      stage: 'booked',
      status: 'unpaid',
      actions: ['pay', 'cancel'],
      paidAt: null,
      holdExpiresAt: null,
      handoverCode: null,
      money: null,
      transactionId: null,
      seller: { ...BASE.seller, number: null, email: null },
    });
    expect(screen.getByRole('link', { name: 'Pay $829.50' })).toHaveAttribute(
      'href',
      `/dashboard/payment/${ID}`,
    );
    expect(screen.getByRole('button', { name: 'Delete' })).toBeInTheDocument();
    expect(screen.getByText('Shown once the buyer has paid')).toBeInTheDocument();
    expect(screen.getByText('Not paid yet')).toBeInTheDocument();
  });

  it('says a phone sold to another buyer cannot be paid for, and offers no Pay', () => {
    renderSale({
      ...BASE,
      stage: 'booked',
      status: 'unpaid',
      actions: ['cancel'],
      soldElsewhere: true,
      paidAt: null,
      handoverCode: null,
      money: null,
    });
    expect(screen.getByText(/This phone was sold to another buyer/)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /^Pay/ })).not.toBeInTheDocument();
  });

  it('after the handover, rates the seller with stars and a comment', async () => {
    const completed: Sale = {
      ...BASE,
      stage: 'completed',
      actions: ['report', 'rate'],
      completedAt: '2026-11-21T09:00:00.000Z',
      handoverCode: null,
      money: 'captured',
    };
    const rated: Sale = {
      ...completed,
      actions: ['report'],
      ratings: { byBuyer: { stars: 4, comment: 'As described.' }, bySeller: null },
    };
    const fetch = vi.fn(async (_url: string, init?: RequestInit) =>
      Response.json(init?.method === 'POST' ? { acknowledged: true } : rated),
    );
    vi.stubGlobal('fetch', fetch);
    renderSale(completed);
    expect(screen.getByRole('button', { name: 'Report a problem' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Send rating' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Choose from 1 to 5 stars.');
    await userEvent.click(screen.getByRole('radio', { name: '4 stars' }));
    await userEvent.type(screen.getByLabelText('Comment (optional)'), 'As described.');
    await userEvent.click(screen.getByRole('button', { name: 'Send rating' }));
    expect(fetch).toHaveBeenCalledWith(
      `/api/orders/${ID}/rating`,
      expect.objectContaining({
        method: 'POST',
        body: JSON.stringify({ stars: 4, comment: 'As described.' }),
      }),
    );
    expect(await screen.findByText('Your rating:')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send rating' })).not.toBeInTheDocument();
  });
});

describe("the IMEI's last four digits (issue 19)", () => {
  it('tells the buyer with the code to check them, and the details show them', () => {
    renderSale({ ...BASE, imeiLast4: '4321' });
    expect(
      screen.getByText('Check the IMEI: dial *#06# on the phone; it should end in 4321.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Details' })).toHaveTextContent(
      /IMEI\s*ends in 4321/,
    );
  });

  it('tells the seller what the buyer checks', () => {
    renderSale({
      ...BASE,
      side: 'seller',
      actions: ['handover', 'cancel'],
      handoverCode: null,
      imeiLast4: '4321',
    });
    expect(
      screen.getByText(/dialling \*#06# on the phone shows one that ends in 4321\./),
    ).toBeVisible();
  });

  it('says nothing of an IMEI the phone was listed without, or before payment', () => {
    renderSale(BASE);
    expect(screen.queryByText(/IMEI/)).not.toBeInTheDocument();
  });
});

describe('the order page, for its seller', () => {
  const SELLER_VIEW: Sale = {
    ...BASE,
    side: 'seller',
    actions: ['handover', 'cancel'],
    handoverCode: null,
  };

  it('takes the code and shows the server’s answer to a wrong one, in sentences', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        Response.json({ message: 'code: not right; 4 tries left' }, { status: 400 }),
      ),
    );
    renderSale(SELLER_VIEW);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Sale: Galaxy S23 Ultra');
    expect(screen.getByRole('region', { name: 'Buyer' })).toHaveTextContent('+1 303 555 0142');
    const code = screen.getByLabelText('Handover code from the buyer');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm handover' }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Enter the six digits the buyer gives you.',
    );
    await userEvent.type(code, '65-4321');
    expect(code).toHaveValue('654321');
    await userEvent.click(screen.getByRole('button', { name: 'Confirm handover' }));
    expect(await screen.findByText('That code is not right. 4 tries left.')).toBeInTheDocument();
    expect(code).toHaveAttribute('aria-invalid', 'true');
  });
});

describe("the seller's share (issue 30)", () => {
  const row = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling;

  it('shows the expected fee and share before the handover, by the fee rule', () => {
    renderSale({ ...BASE, side: 'seller', actions: ['handover'], handoverCode: null }, FEES);
    // 5% of $829.50 is $41.475, which rounds half up to $41.48.
    expect(row('Fee')).toHaveTextContent('$41.48 (expected)');
    expect(row('You receive')).toHaveTextContent('$788.02 (expected)');
  });

  it("shows the sale's own fee and share after it, and where the money is", () => {
    renderSale(
      {
        ...BASE,
        side: 'seller',
        stage: 'completed',
        actions: [],
        handoverCode: null,
        money: 'captured',
        fee: 41.48,
        net: 788.02,
        sellerMoney: 'frozen',
      },
      { percent: 10, minCents: 0 },
    );
    expect(row('Fee')).toHaveTextContent(/^\$41\.48$/);
    expect(row('You receive')).toHaveTextContent(/^\$788\.02$/);
    expect(row('Your money')).toHaveTextContent('Frozen (reported)');
  });

  it('shows the buyer no fee', () => {
    renderSale(BASE, FEES);
    expect(screen.queryByText('Fee', { selector: 'dt' })).not.toBeInTheDocument();
  });
});

const SalePage = () => <p>sale page</p>;

function ShowError() {
  const error = useRouteError();
  return <p>{isRouteErrorResponse(error) ? `route error ${error.status}` : 'other error'}</p>;
}

describe('saleLoader', () => {
  it.each([404, 403, 400])('answers the 404 page when the server says %i', async (status) => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ message: 'no' }, { status })),
    );
    const { session } = await import('@client/lib/auth/session');
    vi.spyOn(session, 'currentUser').mockResolvedValue({
      uid: 'u1',
      email: VIEWER,
      displayName: null,
    });
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const router = createMemoryRouter(
      [
        {
          path: '/dashboard/orders/:id',
          loader: saleLoader(queryClient),
          Component: SalePage,
          ErrorBoundary: ShowError,
        },
      ],
      { initialEntries: [`/dashboard/orders/${ID}`] },
    );
    render(<RouterProvider router={router} />);
    expect(await screen.findByText('route error 404')).toBeInTheDocument();
  });
});
