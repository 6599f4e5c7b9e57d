import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { publicPhone } from '../test-phone';
import type { PhoneActions } from '../use-phone-actions';
import { SimilarPhones } from './similar-phones';

const actions: PhoneActions = {
  wishList: vi.fn(),
  unWishList: vi.fn(),
  book: vi.fn(),
  buyerActions: true,
  bookingOf: () => undefined,
  wishListed: () => false,
  modal: null,
};

const phones = [
  publicPhone(1, { modelName: 'Galaxy S23' }),
  publicPhone(2, { modelName: 'Galaxy S22' }),
];

describe('SimilarPhones', () => {
  it('shows each phone as a card leading to its page, in the order given, none of them eager', () => {
    render(<SimilarPhones products={phones} actions={actions} />, { wrapper: MemoryRouter });
    const section = screen.getByRole('region', { name: 'Similar phones for sale' });
    const cards = within(section).getAllByRole('article');
    expect(cards.map((c) => c.getAttribute('aria-labelledby'))).toEqual([
      `product-${phones[0]?._id}`,
      `product-${phones[1]?._id}`,
    ]);
    expect(within(section).getByRole('link', { name: 'Galaxy S22' })).toHaveAttribute(
      'href',
      `/product/${phones[1]?._id}`,
    );
    for (const img of within(section).getAllByRole('img'))
      expect(img).toHaveAttribute('loading', 'lazy');
  });

  it('says the phone is no longer available when they are offered instead of it', () => {
    render(<SimilarPhones products={phones} actions={actions} instead />, {
      wrapper: MemoryRouter,
    });
    expect(
      screen.getByRole('heading', {
        level: 2,
        name: 'This phone is no longer available: similar phones for sale',
      }),
    ).toBeInTheDocument();
  });

  it('renders nothing when no phone is like it', () => {
    const { container } = render(<SimilarPhones products={[]} actions={actions} instead />, {
      wrapper: MemoryRouter,
    });
    expect(container).toBeEmptyDOMElement();
  });
});
