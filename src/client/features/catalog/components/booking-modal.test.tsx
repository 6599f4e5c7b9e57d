import type { Product } from '@shared/entities';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { BookingModal } from './booking-modal';

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
    render(<RouterProvider router={router} />);
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
