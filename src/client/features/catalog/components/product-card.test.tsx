import type { Product } from '@shared/entities';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { createMemoryRouter, MemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { ProductCard } from './product-card';

const product: Product = {
  _id: '7b0a3c1e-0000-4000-8000-000000000001',
  modelName: 'Galaxy S23 Ultra',
  image: '/images/0123456789abcdef0123456789abcdef-640.webp',
  originalPrice: 1199,
  resellPrice: 829.5,
  location: 'Seattle, WA',
  description: 'With S Pen, no burn-in.',
  timeOfPost: '2026-11-02T09:30:00.000Z',
  timeUsed: 10,
  condition: 'Flawless',
  sellerName: 'Maya Chen',
  categoryId: '02',
  userStatus: 'verified',
  status: 'available',
  sellerRating: { average: null, count: 0 },
  sellerId: '7b0a3c1e-0000-4000-8000-0000000000aa',
  photos: ['/images/0123456789abcdef0123456789abcdef-640.webp'],
  specificatons: { ram: '12 GB', storage: '1 GTB', color: 'Green', battery: 5000 },
  batteryHealth: null,
  imeiChecked: false,
  previousPrice: null,
  priceNote: null,
};

describe('ProductCard', () => {
  it('shows every field of the spec', () => {
    renderCard(<ProductCard product={product} />);
    const card = screen.getByRole('article', { name: 'Galaxy S23 Ultra' });
    const img = within(card).getByRole('img', { name: 'Galaxy S23 Ultra in Green' });
    expect(img).toHaveAttribute('srcset', expect.stringContaining('-320.webp 320w'));
    expect(img).toHaveAttribute('width', '800');
    for (const text of [
      'With S Pen, no burn-in.',
      '12 GB',
      '1 TB',
      'Green',
      '5000 mAh',
      'Seattle, WA',
      '10 months',
      'Maya Chen',
      'Nov 2, 2026',
      'Unsold',
    ]) {
      expect(within(card).getByText(text)).toBeInTheDocument();
    }
    expect(
      within(card).getByText('Resale price', { exact: false }).parentElement,
    ).toHaveTextContent('Resale price $829.50');
    expect(
      within(card).getByText('Original price', { exact: false }).parentElement,
    ).toHaveTextContent('Original price, new: $1,199');
  });

  it("links its title to the phone's page and the seller's name to the seller's page", () => {
    renderCard(<ProductCard product={product} />);
    const card = screen.getByRole('article', { name: 'Galaxy S23 Ultra' });
    const heading = within(card).getByRole('heading', { name: 'Galaxy S23 Ultra', level: 2 });
    expect(within(heading).getByRole('link', { name: 'Galaxy S23 Ultra' })).toHaveAttribute(
      'href',
      `/product/${product._id}`,
    );
    expect(within(card).getByRole('link', { name: 'Maya Chen' })).toHaveAttribute(
      'href',
      `/seller/${product.sellerId}`,
    );
  });

  it('shows the verified badge only for a verified seller', () => {
    const { rerender } = renderCard(<ProductCard product={product} />);
    expect(screen.getByTitle('Verified seller')).toBeInTheDocument();
    rerender(<ProductCard product={{ ...product, userStatus: null }} />);
    expect(screen.queryByTitle('Verified seller')).not.toBeInTheDocument();
  });

  it('shows Sold and disables Book Now for a sold phone', () => {
    renderCard(<ProductCard product={{ ...product, status: 'sold' }} />);
    expect(screen.getByText('Sold')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Book Now' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Add to Wish List' })).toBeEnabled();
  });

  it('says a wish-listed phone is on the wish list and offers to remove it, not to add it again', async () => {
    const onWishList = vi.fn();
    const onUnWishList = vi.fn();
    renderCard(
      <ProductCard
        product={product}
        wishListed
        onWishList={onWishList}
        onUnWishList={onUnWishList}
      />,
    );
    const card = screen.getByRole('article', { name: 'Galaxy S23 Ultra' });
    expect(within(card).getByText('On your wish list')).toBeVisible();
    expect(within(card).queryByRole('button', { name: 'Add to Wish List' })).toBeNull();
    await userEvent.click(
      within(card).getByRole('button', { name: 'Remove from wish list for Galaxy S23 Ultra' }),
    );
    expect(onUnWishList).toHaveBeenCalledWith(product);
    expect(onWishList).not.toHaveBeenCalled();
  });

  it('hands the phone to the booking and wish-list actions', async () => {
    const onBook = vi.fn();
    const onWishList = vi.fn();
    renderCard(<ProductCard product={product} onBook={onBook} onWishList={onWishList} />);
    await userEvent.click(screen.getByRole('button', { name: 'Book Now' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add to Wish List' }));
    expect(onBook).toHaveBeenCalledWith(product);
    expect(onWishList).toHaveBeenCalledWith(product);
  });

  it('offers a signed-in seller or admin neither booking nor the wish list, and says why', () => {
    renderCard(<ProductCard product={product} buyerActions={false} />);
    expect(screen.getByText('Only buyers can book or wish-list phones.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Book Now' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add to Wish List' })).not.toBeInTheDocument();
  });

  it("shows the seller's rating beside their name, or that there is none yet", () => {
    const { rerender } = renderCard(<ProductCard product={product} />);
    expect(screen.getByText('No ratings yet')).toBeInTheDocument();
    rerender(<ProductCard product={{ ...product, sellerRating: { average: 4.5, count: 12 } }} />);
    expect(screen.getByText('★ 4.5 (12)')).toBeInTheDocument();
    expect(screen.getByText('Rated 4.5 out of 5 from 12 ratings')).toHaveClass('sr-only');
  });

  it('marks a phone the buyer booked and goes on to pay for it instead of booking again', () => {
    inRouter(<ProductCard product={product} booking={{ orderId: ORDER, stage: 'booked' }} />);
    expect(screen.getByText('Booked by you')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Book Now' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Pay now for Galaxy S23 Ultra' })).toHaveAttribute(
      'href',
      `/dashboard/payment/${ORDER}`,
    );
  });

  it('links a paid booking, or one sold to another buyer, to the order instead', () => {
    inRouter(
      <ProductCard
        product={{ ...product, status: 'sold' }}
        booking={{ orderId: ORDER, stage: 'booked' }}
      />,
    );
    expect(
      screen.getByRole('link', { name: 'See your order for Galaxy S23 Ultra' }),
    ).toHaveAttribute('href', `/dashboard/orders/${ORDER}`);
    expect(screen.queryByRole('link', { name: /Pay now/ })).not.toBeInTheDocument();
  });

  describe('what tells a buyer it can be trusted (issue 19)', () => {
    it('shows "IMEI checked" beside the verified badge only when the IMEI passed', () => {
      const { rerender } = renderCard(<ProductCard product={{ ...product, imeiChecked: true }} />);
      const badge = screen.getByText('IMEI checked');
      expect(badge).toHaveClass('badge');
      expect(badge).toHaveTextContent(/IMEI checked: .*not reported stolen/);
      // Beside the verified badge, in the seller's row.
      expect(badge.parentElement).toBe(screen.getByTitle('Verified seller').parentElement);
      rerender(<ProductCard product={product} />);
      expect(screen.queryByText('IMEI checked')).not.toBeInTheDocument();
    });

    it('shows the battery health where the seller stated it', () => {
      const { rerender } = renderCard(<ProductCard product={{ ...product, batteryHealth: 92 }} />);
      const card = screen.getByRole('article', { name: 'Galaxy S23 Ultra' });
      expect(within(card).getByText('Battery health').nextSibling).toHaveTextContent('92%');
      rerender(<ProductCard product={product} />);
      expect(screen.queryByText('Battery health')).not.toBeInTheDocument();
    });

    it('tells the price it dropped from ("was", struck) and the new-phone price ("new:", not struck) apart', () => {
      const { container, rerender } = renderCard(
        <ProductCard product={{ ...product, previousPrice: 899 }} />,
      );
      const struck = [...container.querySelectorAll('del, s')].map((d) => d.textContent);
      expect(struck).toEqual(['$899']);
      expect(container.querySelector('del')?.parentElement).toHaveTextContent(/^was \$899$/);
      expect(container.querySelector('del')?.parentElement).not.toHaveClass('sr-only');
      const original = screen.getByText('Original price,').parentElement;
      expect(original).toHaveTextContent(/^Original price, new: \$1,199$/);
      expect(original).toHaveClass('text-current/70');
      rerender(<ProductCard product={product} />);
      expect(container.querySelectorAll('del, s')).toHaveLength(0);
      expect(screen.getByText('Original price,').parentElement).toHaveTextContent('new: $1,199');
    });

    it.each([
      ['good', 'Good price', /At or below the median price of recent sales/],
      ['high', 'High price', /above the median price of recent sales/],
    ] as const)('notes a %s price, with what it means', (note, label, meaning) => {
      renderCard(<ProductCard product={{ ...product, priceNote: note }} />);
      const badge = screen.getByText(label);
      expect(badge).toHaveAttribute('title', expect.stringMatching(meaning));
      expect(badge).toHaveTextContent(meaning);
      // Beside the price.
      expect(badge.closest('p')).toHaveTextContent('Resale price $829.50');
    });

    it('shows no price note without enough comparable sales', () => {
      renderCard(<ProductCard product={product} />);
      expect(screen.queryByText(/Good price|High price/)).not.toBeInTheDocument();
    });
  });
});

const ORDER = '7b0a3c1e-0000-4000-8000-0000000000ee';

function inRouter(element: ReactNode) {
  render(<RouterProvider router={createMemoryRouter([{ path: '/', element }])} />);
}

/** The card links to pages: it renders inside a router. */
function renderCard(element: ReactNode) {
  return render(element, { wrapper: MemoryRouter });
}
