import { ApiError } from '@client/lib/api-client';
import { clientConfigQueryOptions } from '@client/lib/client-config';
import type { ClientConfig } from '@shared/api';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { feeNote } from '../components/fee-note';
import { showFieldErrors } from '../components/product-form';
import { hasAcceptedExtension } from '../image-extension';
import { AddProductRoute } from './add-product';

afterEach(() => vi.unstubAllGlobals());
// The fair-price guide (its own tests) asks the server for sales; this form's tests count calls.
vi.mock('../components/price-guide', () => ({ PriceGuide: () => null }));

const LABELS = [
  'Category',
  'Model name',
  'RAM',
  'Storage',
  'Color',
  'Battery (mAh)',
  'Resale price ($)',
  'Original price ($)',
  'Time used (months)',
  'Condition',
  'IMEI',
  'Phone number',
  'Location',
  'Photos',
  'Description',
];

const CONFIG: ClientConfig = {
  identity: { google: false },
  payments: { provider: 'embedded', publishableKey: null },
  fees: { percent: 5, minCents: 0 },
  payouts: { provider: 'embedded', schedule: 'daily', accountHoldHours: 24 },
  images: { provider: 'embedded', uploadUrl: '/api/images' },
};

/** The form as its route loader leaves it: the configuration (the fee rule) already loaded. */
function renderForm(fees: ClientConfig['fees'] = CONFIG.fees) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      calls.push(url);
      return Response.json({});
    }),
  );
  const router = createMemoryRouter([{ path: '/', Component: AddProductRoute }]);
  const queryClient = new QueryClient();
  queryClient.setQueryData(clientConfigQueryOptions().queryKey, { ...CONFIG, fees });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return calls;
}

const labelOf = (text: string) => screen.getByText(text, { selector: 'label' });

describe('Add A Product', () => {
  it("shows 'Required Field' next to every empty field's label and sends nothing", async () => {
    const calls = renderForm();
    await userEvent.click(screen.getByRole('button', { name: 'Add A Product' }));
    for (const label of LABELS) {
      expect(within(labelOf(label)).getByText('Required Field')).toBeInTheDocument();
    }
    expect(calls).toEqual([]);
  });

  it('has the options and placeholders of the spec, and a read-only seller name', () => {
    renderForm();
    const options = (label: string) =>
      [...(screen.getByLabelText(label) as HTMLSelectElement).options]
        .filter((o) => !o.disabled)
        .map((o) => o.text);
    expect(options('RAM')).toEqual(['4 GB', '6 GB', '8 GB', '12 GB', '16 GB']);
    expect(options('Storage')).toEqual(['32 GB', '64 GB', '128 GB', '256 GB', '1 TB']);
    expect((screen.getByLabelText('Storage') as HTMLSelectElement).options[5]?.value).toBe('1 GTB');
    expect(options('Condition')).toEqual(['Brand New', 'Flawless', 'Good', 'Fair', 'Minor Damage']);
    expect(options('Category')).toEqual(['Apple', 'Samsung', 'Infinix', 'Oppo', 'Xiaomi']);
    expect(screen.getByLabelText('Battery (mAh)')).toHaveAttribute('placeholder', 'Example: 5000');
    expect(screen.getByLabelText('Time used (months)')).toHaveAttribute(
      'placeholder',
      'Number of months',
    );
    expect(screen.getByLabelText('Seller name')).toHaveAttribute('readonly');
  });

  it('refuses a photo whose extension is not jpg, jpeg, png or webp, and uploads nothing', async () => {
    const calls = renderForm();
    const gif = new File(['GIF89a'], 'photo.gif', { type: 'image/gif' });
    await userEvent.upload(screen.getByLabelText('Photos'), gif, { applyAccept: false });
    await userEvent.click(screen.getByRole('button', { name: 'Add A Product' }));
    expect(
      within(labelOf('Photos')).getByText('Your image formate should be jpg, jpeg, png, webp'),
    ).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('tells a refused photo at once, and takes the message back when a good one is picked', async () => {
    renderForm();
    const gif = new File(['GIF89a'], 'photo.gif', { type: 'image/gif' });
    await userEvent.upload(screen.getByLabelText('Photos'), gif, { applyAccept: false });
    const message = 'Your image formate should be jpg, jpeg, png, webp';
    expect(within(labelOf('Photos')).getByText(message)).toBeInTheDocument();
    const jpg = new File(['jpeg bytes'], 'phone.jpg', { type: 'image/jpeg' });
    await userEvent.upload(screen.getByLabelText(/^Photos/), jpg);
    expect(screen.queryByText(message)).not.toBeInTheDocument();
    expect(screen.getAllByRole('listitem')).toHaveLength(1);
  });

  it('re-validates on change once submitted', async () => {
    renderForm();
    await userEvent.click(screen.getByRole('button', { name: 'Add A Product' }));
    await userEvent.type(screen.getByLabelText(/^Model name/), 'Pixel');
    expect(within(labelOf('Model name')).queryByText('Required Field')).not.toBeInTheDocument();
    expect(within(labelOf('Color')).getByText('Required Field')).toBeInTheDocument();
  });
});

describe('Add A Product reads what people type (issue 19)', () => {
  const typeInto = async (label: string, text: string) =>
    userEvent.type(screen.getByLabelText(new RegExp(`^${label.replace(/[()$%]/g, '\\$&')}`)), text);
  const messageBeside = (label: string) => labelOf(label).querySelector('[role="alert"]');

  it.each([
    ['Resale price ($)', '1,200'],
    ['Original price ($)', '$1,500.50'],
    ['Battery (mAh)', '4,500 mAh'],
    ['Time used (months)', '18 months'],
    ['Time used (months)', '1.5 years'],
    ['Battery health (%)', '85%'],
  ])('accepts %s typed as %j', async (label, text) => {
    renderForm();
    await typeInto(label, text);
    await userEvent.click(screen.getByRole('button', { name: 'Add A Product' }));
    expect(messageBeside(label)).toBeNull();
  });

  it.each([
    ['Resale price ($)', '1,20', /^Write the price in dollars/],
    ['Battery (mAh)', 'big', /^Write the capacity/],
    ['Time used (months)', 'a while', /^Write it in months/],
    ['Battery health (%)', '40', /^A whole number from 50 to 100/],
  ])(
    'tells an unreadable %s beside it, without repeating its label, and sends nothing',
    async (label, text, message) => {
      const calls = renderForm();
      await typeInto(label, text);
      await userEvent.click(screen.getByRole('button', { name: 'Add A Product' }));
      expect(messageBeside(label)?.textContent).toMatch(message);
      expect(calls).toEqual([]);
    },
  );

  it('tells a mistyped IMEI beside its field, with the hint to find it', async () => {
    const calls = renderForm();
    expect(screen.getByText('Dial *#06# on the phone to see it')).toBeInTheDocument();
    await typeInto('IMEI', '490154203237519');
    await userEvent.click(screen.getByRole('button', { name: 'Add A Product' }));
    expect(messageBeside('IMEI')?.textContent).toBe(
      'A digit is mistyped (its last digit does not check out)',
    );
    expect(screen.getByLabelText(/^IMEI/)).toHaveAttribute('aria-invalid', 'true');
    expect(calls).toEqual([]);
  });

  it("puts the server's refusals beside their fields", () => {
    const setError = vi.fn();
    const placed = showFieldErrors(
      new ApiError(409, 'IMEI: This phone is already listed', {
        imei: 'IMEI: This phone is already listed',
        'specificatons.battery': 'Battery (mAh): at most 100,000 mAh',
      }),
      setError,
      () => true,
    );
    expect(placed).toBe(true);
    expect(setError).toHaveBeenCalledWith(
      'imei',
      { type: 'server', message: 'IMEI: This phone is already listed' },
      { shouldFocus: true },
    );
    expect(setError).toHaveBeenCalledWith(
      'battery',
      { type: 'server', message: 'Battery (mAh): at most 100,000 mAh' },
      { shouldFocus: false },
    );
    expect(showFieldErrors(new ApiError(500, 'Internal Server Error'), setError, () => true)).toBe(
      false,
    );
  });
});

describe('what the seller receives (issue 30)', () => {
  it('tells the amount after the fee as the price is typed, and again as it changes', async () => {
    renderForm();
    const price = screen.getByLabelText(/^Resale price/);
    await userEvent.type(price, '1,200');
    expect(screen.getByText('You receive $1,140.00 after the 5% fee')).toBeInTheDocument();
    await userEvent.clear(price);
    await userEvent.type(price, '$19.99');
    // 5% of $19.99 is 99.95 cents, which rounds up to $1.00.
    expect(screen.getByText('You receive $18.99 after the 5% fee')).toBeInTheDocument();
    await userEvent.clear(price);
    await userEvent.type(price, 'cheap');
    expect(screen.queryByText(/^You receive/)).not.toBeInTheDocument();
  });

  it('names the minimum fee when it is the larger', async () => {
    renderForm({ percent: 5, minCents: 100 });
    await userEvent.type(screen.getByLabelText(/^Resale price/), '5');
    expect(screen.getByText('You receive $4.00 after the $1.00 minimum fee')).toBeInTheDocument();
  });

  it('matches the shared fee rule at its edges', () => {
    const rule = { percent: 2.75, minCents: 50 };
    expect(feeNote(1000, rule)).toBe('You receive $9.50 after the $0.50 minimum fee');
    expect(feeNote(30, rule)).toBe('You receive $0.00 after the $0.50 minimum fee');
    expect(feeNote(100_000, rule)).toBe('You receive $972.50 after the 2.75% fee');
    expect(feeNote(100_000, { percent: 0, minCents: 0 })).toBe(
      'You receive $1,000.00 after the 0% fee',
    );
  });
});

describe('hasAcceptedExtension', () => {
  it.each([
    ['phone.jpg', true],
    ['phone.JPEG', true],
    ['phone.png', true],
    ['phone.webp', true],
    ['photo.gif', false],
    ['phone', false],
    // The part after the first dot, as the spec says.
    ['my.phone.jpg', false],
  ])('%s → %s', (name, accepted) => {
    expect(hasAcceptedExtension(name)).toBe(accepted);
  });
});
