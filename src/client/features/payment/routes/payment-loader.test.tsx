import { QueryClient } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import {
  createMemoryRouter,
  isRouteErrorResponse,
  RouterProvider,
  useRouteError,
} from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { paymentLoader } from './payment';

afterEach(() => vi.unstubAllGlobals());

const CONFIG = {
  identity: { google: false },
  payments: { provider: 'embedded', publishableKey: null },
  images: { provider: 'embedded', uploadUrl: '/api/images' },
};

const PaymentPage = () => <p>payment page</p>;

function ShowError() {
  const error = useRouteError();
  return <p>{isRouteErrorResponse(error) ? `route error ${error.status}` : 'other error'}</p>;
}

/** Loads the payment page of an order the server answers with `status`. */
function loadWith(status: number, message: string) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) =>
      url === '/api/config' ? Response.json(CONFIG) : Response.json({ message }, { status }),
    ),
  );
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      {
        path: '/dashboard/payment/:id',
        loader: paymentLoader(queryClient),
        Component: PaymentPage,
        ErrorBoundary: ShowError,
      },
    ],
    { initialEntries: ['/dashboard/payment/7b0a3c1e-0000-4000-8000-00000000dead'] },
  );
  render(<RouterProvider router={router} />);
}

describe('paymentLoader', () => {
  it.each([
    [404, 'No such order'],
    [403, 'You may only act on your own account'],
    [400, 'id must be a valid id'],
  ])('answers the 404 page when the server says %i', async (status, message) => {
    loadWith(status, message);
    expect(await screen.findByText('route error 404')).toBeInTheDocument();
  });

  it('leaves other failures to the error page that offers a reload', async () => {
    loadWith(503, 'Database unavailable');
    expect(await screen.findByText('other error')).toBeInTheDocument();
  });
});
