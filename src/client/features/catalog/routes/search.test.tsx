import { createQueryClient } from '@client/lib/query-client';
import type { Product } from '@shared/entities';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TYPING_PAUSE_MS } from '../components/phone-filters-form';
import { publicPhone } from '../test-phone';
import { CategoryRoute, categoryLoader } from './category';
import { SearchRoute, searchLoader } from './search';

/** A phone's screen: the filters are a drawer (jsdom has no matchMedia of its own). */
beforeEach(() =>
  vi.stubGlobal(
    'matchMedia',
    vi.fn(() => ({ matches: false, addEventListener: vi.fn(), removeEventListener: vi.fn() })),
  ),
);
afterEach(() => vi.unstubAllGlobals());

const phone = publicPhone;

const Nothing = () => null;

type Answer = { status?: number; body: unknown; next?: string };

/** The app's routes for a list, at `url`, with the API answering through `answer`. */
function renderAt(url: string, answer: (url: string) => Answer) {
  const requested: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      requested.push(input);
      const { status = 200, body, next } = answer(input);
      return Response.json(body, {
        status,
        headers: next ? { link: `<${next}>; rel="next"` } : {},
      });
    }),
  );
  // The app's own client: its answers stay fresh for a while, as after a loader in the app.
  const queryClient = createQueryClient();
  const router = createMemoryRouter(
    [
      {
        path: '/search',
        loader: searchLoader(queryClient),
        Component: SearchRoute,
        HydrateFallback: Nothing,
      },
      {
        path: '/category/:id',
        loader: categoryLoader(queryClient),
        Component: CategoryRoute,
        HydrateFallback: Nothing,
      },
    ],
    { initialEntries: [url] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  const search = () => router.state.location.search;
  return { router, requested, search };
}

const found = (
  products: Product[],
  count = products.length,
  countCapped = false,
  closeMatches = false,
) => ({ body: { count, countCapped, closeMatches, products } });

const BRIEF_URL = '/search?q=iphone+13&brand=01&storage=128+GB&maxPrice=450&sort=price-asc';

describe('the search page', () => {
  it("asks the search for the URL's query and shows the count and the phones", async () => {
    const { requested } = renderAt(BRIEF_URL, () => found([phone(1), phone(2)]));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Phones matching “iphone 13”' }),
    ).toBeInTheDocument();
    expect(requested).toEqual([
      '/api/search?q=iphone%2013&brand=01&storage=128%20GB&maxPrice=450&sort=price-asc',
    ]);
    expect(screen.getByRole('status')).toHaveTextContent('2 phones');
    expect(screen.getAllByRole('article')).toHaveLength(2);
  });

  it('shows the URL in the form: boxes, fields, the sort and the number of filters', async () => {
    renderAt(BRIEF_URL, () => found([phone(1)]));
    const form = await screen.findByRole('form', { name: 'Filters' });
    expect(within(form).getByRole('group', { name: 'Brand' })).toBeInTheDocument();
    expect(within(form).getByRole('checkbox', { name: 'Apple' })).toBeChecked();
    expect(within(form).getByRole('checkbox', { name: 'Samsung' })).not.toBeChecked();
    expect(within(form).getByRole('checkbox', { name: '128 GB' })).toBeChecked();
    expect(within(form).getByRole('spinbutton', { name: 'Max' })).toHaveValue(450);
    expect(within(form).getByRole('spinbutton', { name: 'Min' })).toHaveValue(null);
    expect(within(form).getByRole('checkbox', { name: 'Include sold phones' })).not.toBeChecked();
    expect(screen.getByRole('combobox', { name: 'Sort by' })).toHaveValue('price-asc');
    expect(screen.getByRole('button', { name: 'Filters (3)' })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
  });

  it('applies a box as it is ticked, as a step back undoes; back brings the form the old URL', async () => {
    const user = userEvent.setup();
    const { router, search, requested } = renderAt('/search?q=pixel', () => found([phone(1)]));
    await user.click(await screen.findByRole('checkbox', { name: '8 GB' }));
    await waitFor(() => expect(search()).toBe('?q=pixel&ram=8+GB'));
    expect(requested.at(-1)).toBe('/api/search?q=pixel&ram=8%20GB');
    expect(screen.getByRole('checkbox', { name: '8 GB' })).toBeChecked();

    await user.selectOptions(screen.getByRole('combobox', { name: 'Sort by' }), 'price-desc');
    await waitFor(() => expect(search()).toBe('?q=pixel&ram=8+GB&sort=price-desc'));

    await router.navigate(-1);
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Sort by' })).toHaveValue('newest'),
    );
    expect(screen.getByRole('checkbox', { name: '8 GB' })).toBeChecked();
    await router.navigate(-1);
    await waitFor(() => expect(screen.getByRole('checkbox', { name: '8 GB' })).not.toBeChecked());
    await router.navigate(1);
    await waitFor(() => expect(screen.getByRole('checkbox', { name: '8 GB' })).toBeChecked());
  });

  it('shows a ticked box and the sort chosen at once, while their list loads', async () => {
    const user = userEvent.setup();
    const { search } = renderAt('/search?q=pixel', () => found([phone(1)]));
    // The server holds every list asked for until `release`, then answers them and every later
    // one: the sort's navigation starts after the next frame, which may come after the release.
    const waiting: (() => void)[] = [];
    let released = false;
    const answer = () => Response.json(found([phone(2)]).body);
    vi.mocked(fetch).mockImplementation(() =>
      released
        ? Promise.resolve(answer())
        : new Promise((resolve) => waiting.push(() => resolve(answer()))),
    );
    const release = () => {
      released = true;
      for (const respond of waiting) respond();
    };
    await user.click(await screen.findByRole('checkbox', { name: '8 GB' }));
    expect(screen.getByRole('checkbox', { name: '8 GB' })).toBeChecked();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Sort by' }), 'price-asc');
    expect(screen.getByRole('combobox', { name: 'Sort by' })).toHaveValue('price-asc');
    expect(screen.getByRole('checkbox', { name: '8 GB' })).toBeChecked();
    expect(search()).toBe('?q=pixel');
    release();
    await waitFor(() => expect(search()).toBe('?q=pixel&ram=8+GB&sort=price-asc'));
    expect(screen.getByRole('checkbox', { name: '8 GB' })).toBeChecked();
  });

  it('keeps every box ticked in a row before the page has the first (each applies after its frame)', async () => {
    const { search } = renderAt('/search?q=pixel', () => found([phone(1)]));
    const ram = await screen.findByRole('checkbox', { name: '8 GB' });
    const storage = screen.getByRole('checkbox', { name: '128 GB' });
    const verified = screen.getByRole('checkbox', { name: /verified/i });
    // One batch: each tap's change is made before the page has rendered the one before.
    act(() => {
      ram.click();
      storage.click();
      verified.click();
    });
    expect(ram).toBeChecked();
    expect(storage).toBeChecked();
    expect(verified).toBeChecked();
    await waitFor(() => expect(search()).toBe('?q=pixel&ram=8+GB&storage=128+GB&verified=true'));
    expect(ram).toBeChecked();
    expect(storage).toBeChecked();
    expect(verified).toBeChecked();
  });

  it('applies a typed price once typing pauses, as one step, and a back leaves the field as it was', async () => {
    const user = userEvent.setup();
    const { router, search } = renderAt('/search?q=pixel', () => found([phone(1)]));
    const max = await screen.findByRole('spinbutton', { name: 'Max' });
    await user.type(max, '30');
    await waitFor(() => expect(search()).toBe('?q=pixel&maxPrice=30'), {
      timeout: TYPING_PAUSE_MS * 3,
    });
    await user.type(max, '0');
    await waitFor(() => expect(search()).toBe('?q=pixel&maxPrice=300'), {
      timeout: TYPING_PAUSE_MS * 3,
    });
    expect(max).toHaveValue(300);

    // The field's typing was one step: back goes to before it.
    await router.navigate(-1);
    await waitFor(() => expect(search()).toBe('?q=pixel'));
    await waitFor(() => expect(screen.getByRole('spinbutton', { name: 'Max' })).toHaveValue(null));
  });

  it('applies what is typed at once on Enter', async () => {
    const user = userEvent.setup();
    const { search } = renderAt('/search', () => found([phone(1)]));
    await user.type(await screen.findByRole('textbox', { name: 'City or area' }), 'Austin{Enter}');
    await waitFor(() => expect(search()).toBe('?location=Austin'));
  });

  it('opens the filters in a drawer from their button on a phone, and gives focus back', async () => {
    const user = userEvent.setup();
    const { search } = renderAt('/search', () => found([phone(1), phone(2)]));
    const button = await screen.findByRole('button', { name: 'Filters' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    await user.click(button);
    const drawer = screen.getByRole('dialog', { name: 'Filters' });
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(button).toHaveAttribute('aria-controls', drawer.id);
    expect(within(drawer).getByRole('status')).toHaveTextContent('2 phones');
    await user.click(within(drawer).getByRole('checkbox', { name: 'Verified sellers only' }));
    await waitFor(() => expect(search()).toBe('?verified=true'));
    // Behind the open drawer the page is hidden from assistive technology, the button too.
    expect(screen.queryByRole('button', { name: 'Filters (1)' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Filters (1)', hidden: true })).toBeInTheDocument();
    // (Escape is the browser's: jsdom's <dialog> has none; the browser test presses it.)
    await user.click(within(drawer).getByRole('button', { name: 'Close filters' }));
    expect(drawer).not.toHaveAttribute('open');
    expect(screen.getByRole('button', { name: 'Filters (1)' })).toHaveFocus();
  });

  it("applies what was typed in the drawer with its 'Show phones' button, and closes it", async () => {
    const user = userEvent.setup();
    const { search } = renderAt('/search?q=pixel', () => found([phone(1)]));
    await user.click(await screen.findByRole('button', { name: 'Filters' }));
    const drawer = screen.getByRole('dialog', { name: 'Filters' });
    await user.type(within(drawer).getByRole('spinbutton', { name: 'At least (mAh)' }), '4500');
    await user.click(within(drawer).getByRole('button', { name: 'Show phones' }));
    expect(drawer).not.toHaveAttribute('open');
    await waitFor(() => expect(search()).toBe('?q=pixel&minBattery=4500'));
  });

  it('says 1,000+ when the count is capped, and 1 phone for one', async () => {
    renderAt('/search?q=phone', () => found([phone(1)], 1000, true));
    expect(await screen.findByRole('status')).toHaveTextContent('1,000+ phones');
  });

  it('says when the phones are close matches, not the words as typed', async () => {
    renderAt('/search?q=iphnoe', () => found([phone(1)], 1, false, true));
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent(
        '1 phone Nothing matches “iphnoe” as typed: these are close matches.',
      ),
    );
  });

  it('says when nothing matches, and offers to clear the filters but keep the words', async () => {
    renderAt('/search?q=pixel&ram=16+GB&sort=price-asc', () => found([]));
    expect(await screen.findByRole('status')).toHaveTextContent('No phones match');
    const clear = screen
      .getAllByRole('link', { name: 'Clear filters' })
      .map((a) => a.getAttribute('href'));
    expect(clear).toContain('/search?q=pixel&sort=price-asc');
  });

  it("shows the server's message for a query it refuses, with the filters still there", async () => {
    renderAt('/search?minPrice=500&maxPrice=100', () => ({
      status: 400,
      body: { message: 'minPrice must not be above maxPrice' },
    }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The search could not use these filters: minPrice must not be above maxPrice',
    );
    expect(screen.getByRole('link', { name: 'Start again' })).toHaveAttribute('href', '/search');
    expect(screen.getByRole('spinbutton', { name: 'Min' })).toHaveValue(500);
  });

  it('says when there were too many searches, instead of an error page', async () => {
    renderAt('/search?q=pixel', () => ({
      status: 429,
      body: { message: 'Too many requests, please try again in 1 minute.' },
    }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Too many requests, please try again in 1 minute.',
    );
    expect(screen.getByRole('form', { name: 'Filters' })).toBeInTheDocument();
  });

  it("leaves out the link's values it does not know, says so, and searches without them", async () => {
    const { requested } = renderAt('/search?brand=99&ram=8+GB&sort=cheapest', () =>
      found([phone(1)]),
    );
    expect(await screen.findByText(/left out: brand=99, sort=cheapest\.$/)).toBeInTheDocument();
    expect(requested).toEqual(['/api/search?ram=8%20GB']);
  });

  it('shows the next page the server links to, and keeps the first page’s count', async () => {
    const user = userEvent.setup();
    renderAt('/search?q=iphone', (url) =>
      url.includes('cursor')
        ? { body: { count: null, countCapped: false, closeMatches: false, products: [phone(3)] } }
        : { ...found([phone(1), phone(2)], 3), next: '/api/search?q=iphone&cursor=2' },
    );
    await user.click(await screen.findByRole('button', { name: 'Show more phones' }));
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(3));
    expect(screen.getByRole('status')).toHaveTextContent('3 phones');
    expect(screen.queryByRole('button', { name: 'Show more phones' })).not.toBeInTheDocument();
  });
});

describe('a brand page', () => {
  it("keeps the spec's call and texts, names the brand, and offers every filter but the brand", async () => {
    const { requested } = renderAt('/category/01', () => ({
      body: [phone(1), phone(2, { status: 'sold' })],
    }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Products' })).toBeInTheDocument();
    expect(screen.getByText('Apple')).toBeInTheDocument();
    expect(requested).toEqual(['/api/category/01']);
    expect(screen.getAllByRole('article')).toHaveLength(2);
    expect(screen.getByText('Sold')).toBeInTheDocument();
    const form = screen.getByRole('form', { name: 'Filters' });
    expect(within(form).queryByRole('group', { name: 'Brand' })).not.toBeInTheDocument();
    expect(within(form).getByRole('checkbox', { name: 'Include sold phones' })).toBeChecked();
    expect(screen.getByRole('status')).toHaveTextContent('');
  });

  it('lists from the search, the brand fixed and sold phones in, once a filter or sort is set', async () => {
    const user = userEvent.setup();
    const { requested, search } = renderAt('/category/01', (url) =>
      url.startsWith('/api/search') ? found([phone(1)]) : { body: [phone(1), phone(2)] },
    );
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Sort by' }), 'price-asc');
    await waitFor(() => expect(search()).toBe('?sort=price-asc'));
    expect(requested.at(-1)).toBe('/api/search?brand=01&includeSold=true&sort=price-asc');
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('1 phone'));

    await user.click(screen.getByRole('checkbox', { name: 'Include sold phones' }));
    await waitFor(() => expect(search()).toBe('?includeSold=false&sort=price-asc'));
    expect(requested.at(-1)).toBe('/api/search?brand=01&sort=price-asc');
    expect(screen.getByRole('button', { name: 'Filters (1)' })).toBeInTheDocument();
  });

  it('keeps its drawer open and the box focused when the first filter turns it to the search', async () => {
    const user = userEvent.setup();
    const { search } = renderAt('/category/01', (url) =>
      url.startsWith('/api/search') ? found([phone(1)]) : { body: [phone(1), phone(2)] },
    );
    await user.click(await screen.findByRole('button', { name: 'Filters' }));
    const drawer = screen.getByRole('dialog', { name: 'Filters' });
    const box = within(drawer).getByRole('checkbox', { name: '8 GB' });
    await user.click(box);
    await waitFor(() => expect(search()).toBe('?ram=8+GB'));
    await waitFor(() => expect(within(drawer).getByRole('status')).toHaveTextContent('1 phone'));
    expect(drawer).toHaveAttribute('open');
    expect(box).toBeChecked();
    expect(box).toHaveFocus();
  });

  it("keeps the spec's words for a brand with no phones", async () => {
    renderAt('/category/05', () => ({ body: [] }));
    expect(
      await screen.findByRole('heading', { name: 'There is no products in the category' }),
    ).toBeInTheDocument();
  });
});
