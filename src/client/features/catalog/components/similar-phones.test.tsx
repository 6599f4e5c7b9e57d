import type { Product } from '@shared/entities';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { PhoneActions } from '../use-phone-actions';
import { SimilarPhones } from './similar-phones';

const phone = (n: number, modelName: string): Product => ({
  _id: `7b0a3c1e-0000-4000-8000-00000000000${n}`,
  modelName,
  image: '/images/0123456789abcdef0123456789abcdef-640.webp',
  originalPrice: 999,
  resellPrice: 500 + n,
  location: 'Seattle, WA',
  description: 'Like new.',
  timeOfPost: '2026-11-02T09:30:00.000Z',
  timeUsed: 10,
  condition: 'Good',
  sellerName: 'Maya Chen',
  categoryId: '02',
  userStatus: null,
  status: 'available',
  sellerRating: { average: null, count: 0 },
  sellerId: '7b0a3c1e-0000-4000-8000-0000000000aa',
  photos: ['/images/0123456789abcdef0123456789abcdef-640.webp'],
  specificatons: { ram: '8 GB', storage: '256 GB', color: 'Green', battery: 5000 },
  batteryHealth: null,
  imeiChecked: false,
  previousPrice: null,
  priceNote: null,
});

const actions: PhoneActions = {
  wishList: vi.fn(),
  unWishList: vi.fn(),
  book: vi.fn(),
  buyerActions: true,
  bookingOf: () => undefined,
  wishListed: () => false,
  modal: null,
};

const phones = [phone(1, 'Galaxy S23'), phone(2, 'Galaxy S22')];

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
