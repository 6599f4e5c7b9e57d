import { session } from '@client/lib/auth/session';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster } from 'react-hot-toast';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { brandScope, type FilterScope, readFilters, SEARCH_SCOPE } from '../phone-filters';
import { SaveSearchButton } from './save-search-button';

type User = { uid: string; email: string; displayName: string };
const auth = vi.hoisted(() => ({ user: null as User | null }));
vi.mock('@client/lib/auth/use-auth', () => ({
  useAuthUser: () => auth.user,
  useAuth: () => ({ loading: false, user: auth.user }),
}));

const BEA: User = { uid: 'u1', email: 'bea@example.com', displayName: 'Bea Buyer' };

type Sent = { method: string; url: string; body: unknown };

/** The API: the role checks answer `role`, a save answers `save`; every call is kept. */
function stubApi(role: 'buyer' | 'seller', save: () => Response) {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      sent.push({
        method: init.method ?? 'GET',
        url,
        body: init.body ? JSON.parse(String(init.body)) : undefined,
      });
      if (url.includes('/api/users/admin/')) return Response.json({ isAdmin: false });
      if (url.includes('/api/users/seller/')) return Response.json({ isSeller: role === 'seller' });
      if (url.endsWith('/api/saved-searches')) return save();
      return Response.json({ message: 'Not found' }, { status: 404 });
    }),
  );
  return sent;
}

function renderButton(url: string, scope: FilterScope) {
  const { filters } = readFilters(new URL(url, 'http://x').searchParams, scope);
  const router = createMemoryRouter(
    [
      { path: '/search', element: <SaveSearchButton filters={filters} scope={scope} /> },
      { path: '/category/:id', element: <SaveSearchButton filters={filters} scope={scope} /> },
      { path: '/dashboard/saved-searches', element: <p>saved searches page</p> },
    ],
    { initialEntries: [url] },
  );
  render(
    <QueryClientProvider
      client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
    >
      <RouterProvider router={router} />
      <Toaster />
    </QueryClientProvider>,
  );
  return router;
}

beforeEach(() => {
  // The toaster asks whether motion is reduced; jsdom has no media queries.
  vi.stubGlobal('matchMedia', () => ({ matches: false }));
});
afterEach(() => {
  auth.user = null;
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const signIn = (user: User | null) => {
  auth.user = user;
  vi.spyOn(session, 'currentUser').mockResolvedValue(user);
};

describe('Save this search (issue 33)', () => {
  it('offers a name from the words and filters, and saves the search with the frequency chosen', async () => {
    signIn(BEA);
    const sent = stubApi('buyer', () =>
      Response.json({ insertedId: '7b0a3c1e-0000-4000-8000-000000000001' }),
    );
    const router = renderButton(
      '/search?q=iphone+14&storage=128+GB&maxPrice=500&sort=price-asc',
      SEARCH_SCOPE,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Save this search' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save this search' });
    // Its body is made just after it opens (decision 062).
    await within(dialog).findByLabelText('Name');
    expect(within(dialog).getByLabelText('Name')).toHaveValue('iphone 14 · 128 GB · under $500');
    const how = within(dialog).getByRole('group', { name: 'How should we tell you?' });
    expect(within(how).getByRole('radio', { name: 'At once (bell and e-mail)' })).toBeChecked();
    await userEvent.click(within(how).getByRole('radio', { name: 'Daily digest' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Search saved')).toBeInTheDocument();
    const save = sent.find((s) => s.method === 'POST');
    expect(save?.body).toEqual({
      name: 'iphone 14 · 128 GB · under $500',
      search: 'q=iphone+14&storage=128+GB&maxPrice=500&sort=price-asc',
      frequency: 'daily',
    });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: 'Saved searches' }));
    expect(router.state.location.pathname).toBe('/dashboard/saved-searches');
  });

  it("saves a brand page's search as its brand, sold phones included as the page shows them", async () => {
    signIn(BEA);
    const sent = stubApi('buyer', () =>
      Response.json({ insertedId: '7b0a3c1e-0000-4000-8000-000000000001' }),
    );
    renderButton('/category/02?ram=8+GB', brandScope('02'));
    await userEvent.click(await screen.findByRole('button', { name: 'Save this search' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save this search' });
    // Its body is made just after it opens (decision 062).
    await within(dialog).findByLabelText('Name');
    expect(within(dialog).getByLabelText('Name')).toHaveValue('Samsung · 8 GB RAM');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByText('Search saved');
    expect(sent.find((s) => s.method === 'POST')?.body).toMatchObject({
      search: 'brand=02&ram=8+GB&includeSold=true',
      frequency: 'instant',
    });
  });

  it('keeps the dialog open and says why when the server refuses: the limit, a bad name', async () => {
    signIn(BEA);
    let answer = Response.json({ message: 'You can save at most 25 searches' }, { status: 409 });
    stubApi('buyer', () => answer);
    renderButton('/search?q=pixel', SEARCH_SCOPE);
    await userEvent.click(await screen.findByRole('button', { name: 'Save this search' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save this search' });
    // Its body is made just after it opens (decision 062).
    await within(dialog).findByLabelText('Name');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'You can save at most 25 searches',
    );

    answer = Response.json(
      { message: 'name: at most 60 characters', fields: { name: 'at most 60 characters' } },
      { status: 400 },
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('at most 60 characters')).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/Name/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('asks a visitor to sign in, and brings them back to the same list with the dialog to open', async () => {
    signIn(null);
    stubApi('buyer', () => Response.json({}));
    renderButton('/search?q=pixel', SEARCH_SCOPE);
    await userEvent.click(screen.getByRole('button', { name: 'Save this search' }));
    expect(await screen.findByText('Please sign in to save this search.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute(
      'href',
      `/signin?from=${encodeURIComponent('/search?q=pixel&save-search=1')}`,
    );
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('opens the dialog by itself when a buyer comes back from signing in', async () => {
    signIn(BEA);
    stubApi('buyer', () => Response.json({}));
    const router = renderButton('/search?q=pixel&save-search=1', SEARCH_SCOPE);
    expect(await screen.findByRole('dialog', { name: 'Save this search' })).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toBe('?q=pixel'));
  });

  it('is not offered to a seller', async () => {
    signIn({ ...BEA, email: 'sam@example.com' });
    const sent = stubApi('seller', () => Response.json({}));
    renderButton('/search?q=pixel', SEARCH_SCOPE);
    await waitFor(() => expect(sent.length).toBeGreaterThanOrEqual(2));
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Save this search' })).not.toBeInTheDocument(),
    );
  });
});
