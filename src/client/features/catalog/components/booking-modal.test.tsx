import { BESIDE_MODALS } from '@client/lib/beside-modals';
import type { Product } from '@shared/entities';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster } from 'react-hot-toast';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BookingModal } from './booking-modal';

const auth = vi.hoisted(() => ({
  state: { loading: false, user: null } as {
    loading: boolean;
    user: { uid: string; email: string; displayName: string } | null;
  },
}));
vi.mock('@client/lib/auth/use-auth', () => ({ useAuth: () => auth.state }));

afterEach(() => {
  auth.state = { loading: false, user: null };
  vi.unstubAllGlobals();
});

const product = {
  _id: '7b0a3c1e-0000-4000-8000-000000000001',
  modelName: 'Galaxy S23 Ultra',
  categoryId: '02',
  resellPrice: 829.5,
} as Product;

describe('BookingModal, signed out', () => {
  it('signs in or up and comes back to this phone with its booking form', async () => {
    const router = createMemoryRouter(
      [{ path: '/category/:id', element: <BookingModal product={product} onClose={() => {}} /> }],
      { initialEntries: ['/category/02'] },
    );
    render(
      <QueryClientProvider client={new QueryClient()}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    const back = encodeURIComponent(`/category/02?book=${product._id}`);
    expect(
      await screen.findByRole('dialog', {
        name: 'Please login or create an account to book a product!!',
      }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute(
      'href',
      `/signin?from=${back}`,
    );
    expect(screen.getByRole('link', { name: 'Sign up' })).toHaveAttribute(
      'href',
      `/signup?from=${back}`,
    );
  });
});

describe('BookingModal, signed in', () => {
  it('confirms the booking with the way straight on to pay for it', async () => {
    auth.state = {
      loading: false,
      user: { uid: 'u1', email: 'bea@example.com', displayName: 'Bea Buyer' },
    };
    // The toaster asks whether motion is reduced; jsdom has no media queries.
    vi.stubGlobal('matchMedia', () => ({ matches: false }));
    const orderId = '7b0a3c1e-0000-4000-8000-0000000000ff';
    const fetch = vi.fn(async () => Response.json({ acknowledged: true, insertedId: orderId }));
    vi.stubGlobal('fetch', fetch);
    const onClose = vi.fn();
    const router = createMemoryRouter(
      [
        {
          path: '/category/:id',
          element: <BookingModal product={product} onClose={onClose} />,
        },
        { path: '/dashboard/payment/:id', element: <p>payment page</p> },
      ],
      { initialEntries: ['/category/02'] },
    );
    render(
      <QueryClientProvider client={new QueryClient()}>
        <RouterProvider router={router} />
        <Toaster containerClassName={BESIDE_MODALS} />
      </QueryClientProvider>,
    );
    await userEvent.type(screen.getByPlaceholderText('Meeting Location'), 'City Library');
    await userEvent.type(screen.getByLabelText(/Phone number/), '+1 303 555 0142');
    await userEvent.click(screen.getByRole('button', { name: 'Order' }));
    expect(await screen.findByText('Your Booking is confirmed.')).toBeInTheDocument();
    expect(onClose).toHaveBeenCalled();
    // The toasts stay reachable beside the modal, still open here (its page closes it).
    await userEvent.click(screen.getByRole('link', { name: 'Pay now' }));
    expect(await screen.findByText('payment page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`/dashboard/payment/${orderId}`);
  });
});
