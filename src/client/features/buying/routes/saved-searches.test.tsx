import type { SavedSearch } from '@shared/api';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster } from 'react-hot-toast';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { savedSearchesQueryOptions } from '../api/saved-searches';
import { SavedSearchesRoute } from './saved-searches';

const VIEWER = 'bea@example.com';

vi.mock('@client/lib/auth/use-auth', () => ({
  useAuth: () => ({ loading: false, user: { uid: 'u1', email: VIEWER, displayName: 'Bea' } }),
}));

const id = (n: number) => `7b0a3c1e-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`;

const saved = (n: number, changes: Partial<SavedSearch> = {}): SavedSearch => ({
  _id: id(n),
  name: `Search ${n}`,
  search: 'q=iphone+14&storage=128+GB&maxPrice=500',
  frequency: 'instant',
  paused: false,
  createdAt: '2026-11-20T10:00:00.000Z',
  matching: 12,
  matchingCapped: false,
  newSinceSeen: 0,
  ...changes,
});

type Sent = { method: string; url: string; body: unknown };

/** The page with `searches` cached, the API answering `answer` (its changes kept in `sent`). */
function renderPage(searches: SavedSearch[], answer: (s: Sent) => unknown = () => ({})) {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const call = {
        method: init.method ?? 'GET',
        url,
        body: init.body ? JSON.parse(String(init.body)) : undefined,
      };
      // The list, read again after each change, is the one cached; the changes are kept.
      if (call.method === 'GET') return Response.json(searches);
      sent.push(call);
      return Response.json(answer(call));
    }),
  );
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(savedSearchesQueryOptions(VIEWER).queryKey, searches);
  const router = createMemoryRouter(
    [
      { path: '/dashboard/saved-searches', Component: SavedSearchesRoute },
      { path: '/search', element: <p>search page</p> },
    ],
    { initialEntries: ['/dashboard/saved-searches'] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <Toaster />
    </QueryClientProvider>,
  );
  return { sent, router };
}

const card = (name: string) => screen.getByRole('listitem', { name });

beforeEach(() => vi.stubGlobal('matchMedia', () => ({ matches: false })));
afterEach(() => vi.unstubAllGlobals());

describe('Saved searches page (issue 33)', () => {
  it('lists each search: its filters in short, what matches now, what is new, how it tells', () => {
    renderPage([
      saved(1, { name: 'Cheap iPhones', newSinceSeen: 3 }),
      saved(2, {
        name: 'Any Samsung',
        search: 'brand=02&includeSold=true',
        matching: 1000,
        matchingCapped: true,
        frequency: 'daily',
      }),
    ]);
    expect(screen.getByRole('heading', { level: 1, name: 'Saved searches' })).toBeInTheDocument();
    const first = card('Cheap iPhones');
    expect(within(first).getByText('iphone 14 · 128 GB · under $500')).toBeInTheDocument();
    expect(within(first).getByText('12 phones match now')).toBeInTheDocument();
    expect(within(first).getByText(/3 new/)).toBeInTheDocument();
    expect(within(first).getByText('At once (bell and e-mail)')).toBeInTheDocument();
    const second = card('Any Samsung');
    expect(within(second).getByText('Samsung')).toBeInTheDocument();
    expect(within(second).getByText('1,000+ phones match now')).toBeInTheDocument();
    expect(within(second).queryByText(/new/)).not.toBeInTheDocument();
    expect(within(second).getByText('Daily digest')).toBeInTheDocument();
  });

  it('marks a search seen when opened, then opens it on the search page', async () => {
    const { sent, router } = renderPage([saved(1, { newSinceSeen: 2 })], () => ({
      acknowledged: true,
    }));
    await userEvent.click(within(card('Search 1')).getByRole('button', { name: 'Open Search 1' }));
    expect(await screen.findByText('search page')).toBeInTheDocument();
    expect(sent[0]).toMatchObject({ method: 'POST', url: `/api/saved-searches/${id(1)}/seen` });
    expect(router.state.location.search).toBe('?q=iphone+14&storage=128+GB&maxPrice=500');
  });

  it('pauses a search and resumes a paused one', async () => {
    const { sent } = renderPage([saved(1), saved(2, { paused: true })], (s) =>
      saved(s.url.endsWith(id(1)) ? 1 : 2, s.body as Partial<SavedSearch>),
    );
    expect(within(card('Search 2')).getByText('Paused')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Pause Search 1' }));
    expect(await screen.findByText('Saved search paused')).toBeInTheDocument();
    expect(sent[0]).toMatchObject({
      method: 'PUT',
      url: `/api/saved-searches/${id(1)}`,
      body: { paused: true },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Resume Search 2' }));
    await waitFor(() =>
      expect(sent).toContainEqual({
        method: 'PUT',
        url: `/api/saved-searches/${id(2)}`,
        body: { paused: false },
      }),
    );
  });

  it('edits the name and how it tells', async () => {
    const { sent } = renderPage([saved(1)], (s) => saved(1, s.body as Partial<SavedSearch>));
    await userEvent.click(screen.getByRole('button', { name: 'Edit Search 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit saved search' });
    const name = within(dialog).getByLabelText('Name');
    await userEvent.clear(name);
    await userEvent.type(name, 'Pixel under 400');
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Daily digest' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved search updated')).toBeInTheDocument();
    expect(sent[0]).toMatchObject({
      method: 'PUT',
      body: { name: 'Pixel under 400', frequency: 'daily' },
    });
  });

  it('deletes a search only once the buyer confirms', async () => {
    const { sent } = renderPage([saved(1, { name: 'Old one' })], () => ({ deletedCount: 1 }));
    await userEvent.click(screen.getByRole('button', { name: 'Delete Old one' }));
    const confirm = await screen.findByRole('dialog', {
      name: 'Delete the saved search “Old one”?',
    });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(sent).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: 'Delete Old one' }));
    await userEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'OK' }),
    );
    expect(await screen.findByText('Saved search deleted')).toBeInTheDocument();
    expect(sent[0]).toMatchObject({ method: 'DELETE', url: `/api/saved-searches/${id(1)}` });
  });

  it('explains how to save a search when there is none, with the way to the search', () => {
    renderPage([]);
    expect(screen.getByText('No saved searches yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Search phones' })).toHaveAttribute('href', '/search');
  });
});
