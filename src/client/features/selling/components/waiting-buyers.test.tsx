import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ProductFormValues, useProductForm } from './product-form';
import { WaitingBuyers } from './waiting-buyers';

afterEach(() => vi.unstubAllGlobals());

const READY: Partial<ProductFormValues> = {
  categoryId: '01',
  modelName: 'iPhone 14',
  ram: '6 GB',
  storage: '128 GB',
  condition: 'Good',
  resellPrice: '1,200',
  battery: '3,279 mAh',
  batteryHealth: '',
  location: '',
  description: '',
};

/** The resale price's field and the line under it, in a listing form holding `values`. */
function Form({ values, productId }: { values: Partial<ProductFormValues>; productId?: string }) {
  const form = useProductForm(values);
  return (
    <>
      <input aria-label="Resale price" {...form.register('resellPrice')} />
      <WaitingBuyers form={form} productId={productId} />
    </>
  );
}

/** The line under a form holding `values`; the server answers `answer` to each count asked. */
function renderLine(
  values: Partial<ProductFormValues>,
  answer: () => Response,
  productId?: string,
) {
  const asked: URL[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      asked.push(new URL(url, 'http://localhost'));
      return answer();
    }),
  );
  render(
    <QueryClientProvider
      client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
    >
      <Form values={values} productId={productId} />
    </QueryClientProvider>,
  );
  return asked;
}

const line = () => document.querySelector('p[aria-live="polite"]');

describe('Waiting buyers under the price (issue 33)', () => {
  it('says how many buyers wait once brand, RAM, storage, condition and price are set', async () => {
    const asked = renderLine(READY, () => Response.json({ buyers: 12 }));
    expect(
      await screen.findByText('12 buyers are looking for a phone like this'),
    ).toBeInTheDocument();
    expect(line()).toHaveTextContent('12 buyers are looking for a phone like this');
    expect(asked).toHaveLength(1);
    expect(asked[0]?.pathname).toBe('/api/saved-searches/waiting');
    expect(Object.fromEntries(asked[0]?.searchParams ?? [])).toEqual({
      categoryId: '01',
      ram: '6 GB',
      storage: '128 GB',
      condition: 'Good',
      price: '1200',
      modelName: 'iPhone 14',
      battery: '3279',
    });
  });

  it('says one buyer in the singular, and names the listing being edited', async () => {
    const productId = '7b0a3c1e-0000-4000-8000-000000000001';
    const asked = renderLine(READY, () => Response.json({ buyers: 1 }), productId);
    expect(await screen.findByText('1 buyer is looking for a phone like this')).toBeInTheDocument();
    expect(asked[0]?.searchParams.get('productId')).toBe(productId);
  });

  it('says quietly that no saved search matches yet', async () => {
    renderLine(READY, () => Response.json({ buyers: 0 }));
    expect(await screen.findByText('No saved searches match yet')).toBeInTheDocument();
  });

  it('asks nothing until the price can be read, then once typing rests', async () => {
    const asked = renderLine({ ...READY, resellPrice: '' }, () => Response.json({ buyers: 3 }));
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(asked).toEqual([]);
    await userEvent.type(screen.getByLabelText('Resale price'), '450');
    expect(
      await screen.findByText('3 buyers are looking for a phone like this'),
    ).toBeInTheDocument();
    // Typed a key at a time, asked once.
    expect(asked.map((url) => url.searchParams.get('price'))).toEqual(['450']);
  });

  it('shows nothing when the count cannot be had', async () => {
    const asked = renderLine(READY, () =>
      Response.json({ message: 'Something went wrong' }, { status: 500 }),
    );
    await waitFor(() => expect(asked).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(line()).toHaveTextContent('');
  });
});
