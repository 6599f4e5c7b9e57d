import type { ReviewItem, ReviewRecord } from '@shared/risk';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster } from 'react-hot-toast';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { reviewQueueQueryOptions } from '../api/review';
import { ReviewRoute, reviewLoader } from './review';

const id = (n: number) => `7b0a3c1e-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`;

const SELLER = {
  _id: id(90),
  name: 'Sam Quick',
  email: 'sam@example.com',
  joinedAt: '2026-11-20T10:00:00.000Z',
  listings: 5,
  sales: 0,
  disputes: 1,
};

/** A held listing at a fifth of the guide, with a copied photo and a report. */
const copied: ReviewItem = {
  kind: 'listing',
  id: id(1),
  score: 90,
  held: true,
  title: 'iPhone 15 Pro 256 GB',
  listing: {
    _id: id(1),
    price: 180,
    guidePrice: 900,
    photos: ['/images/aaaa-640.webp', '/images/bbbb-640.webp'],
    status: 'held',
    createdAt: '2026-11-25T09:00:00.000Z',
  },
  seller: SELLER,
  signals: [
    {
      rule: 'price-far-below-guide',
      sentence: "Priced at 20% of the guide's $900 for this model, storage and condition.",
      weight: 50,
      at: '2026-11-25T09:00:00.000Z',
    },
    {
      rule: 'photo-reused',
      sentence: "A photo is already used on another seller's listing.",
      weight: 40,
      at: '2026-11-25T09:00:00.000Z',
    },
  ],
  photoMatches: [
    {
      photo: '/images/aaaa-640.webp',
      matchedPhoto: '/images/cccc-640.webp',
      matchedProductId: id(50),
      distance: 0,
    },
  ],
  reports: [
    {
      _id: id(70),
      reason: 'scam',
      note: 'Half the price of every other one.',
      reporterName: 'Bea Careful',
      createdAt: '2026-11-25T12:00:00.000Z',
    },
  ],
};

/** A listing on sale, reported, not held. */
const reported: ReviewItem = {
  ...copied,
  id: id(2),
  score: 30,
  held: false,
  title: 'Pixel 8 128 GB',
  listing: { ...(copied.listing as NonNullable<ReviewItem['listing']>), _id: id(2), price: 400 },
  seller: { ...SELLER, _id: id(91), name: 'Rita Honest', email: 'rita@example.com' },
  signals: [],
  photoMatches: [],
  reports: [
    {
      _id: id(71),
      reason: 'wrong-details',
      note: '',
      reporterName: 'Bea Careful',
      createdAt: '2026-11-26T12:00:00.000Z',
    },
  ],
};

/** An account sharing a card with a banned one. */
const account: ReviewItem = {
  kind: 'account',
  id: id(92),
  score: 20,
  held: false,
  title: 'Max Again',
  listing: null,
  seller: { ...SELLER, _id: id(92), name: 'Max Again', email: 'max2@example.com', listings: 0 },
  signals: [
    {
      rule: 'shares-with-banned',
      sentence: 'Shares a card with a banned account.',
      weight: 20,
      at: '2026-11-26T08:00:00.000Z',
    },
  ],
  photoMatches: [],
  reports: [],
};

const record = (n: number, changes: Partial<ReviewRecord> = {}): ReviewRecord => ({
  _id: `r${n}`,
  target: 'listing',
  subjectId: id(n),
  subject: `Listing ${n}`,
  action: 'withdraw',
  note: '',
  adminName: 'Ada Admin',
  at: '2026-11-26T15:30:00.000Z',
  ...changes,
});

type Sent = { method: string; url: string; body: unknown };

/**
 * The page over a fake API: the queue answers `queue` (what a decision leaves, set by the test),
 * the records `pages` (each but the last with a next link), a decision `decide`'s answer.
 */
function renderPage({
  queue,
  after = queue,
  pages = [[]],
  decide = () => Response.json({ acknowledged: true }),
  path = '/dashboard/review',
}: {
  queue: ReviewItem[];
  after?: ReviewItem[];
  pages?: ReviewRecord[][];
  decide?: () => Response;
  path?: string;
}) {
  const sent: Sent[] = [];
  let decided = false;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      if (method === 'POST') {
        sent.push({ method, url, body: JSON.parse(String(init.body)) });
        decided = true;
        return decide();
      }
      if (url === '/api/review') return Response.json(decided ? after : queue);
      const page = Number(new URL(url, 'http://x').searchParams.get('page') ?? 0);
      const headers: HeadersInit =
        page + 1 < pages.length
          ? { link: `</api/review/actions?page=${page + 1}>; rel="next"` }
          : {};
      return Response.json(pages[page] ?? [], { headers });
    }),
  );
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(reviewQueueQueryOptions().queryKey, queue);
  const router = createMemoryRouter(
    [
      { path: '/dashboard/review', Component: ReviewRoute, loader: reviewLoader(queryClient) },
      { path: '/product/:id', element: <p>a phone's page</p> },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <Toaster />
    </QueryClientProvider>,
  );
  return { sent, router };
}

const card = (name: string) => screen.getByRole('article', { name });

beforeEach(() => vi.stubGlobal('matchMedia', () => ({ matches: false })));
afterEach(() => vi.unstubAllGlobals());

describe('the Review queue (issue 34)', () => {
  it('shows each item riskiest first, with its signals, photos beside their matches, price, seller and reports', async () => {
    renderPage({ queue: [copied, reported, account] });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Review queue' }),
    ).toBeInTheDocument();
    const list = screen.getByRole('list', { name: /riskiest first/ });
    expect(
      within(list)
        .getAllByRole('heading', { level: 2 })
        .map((h) => h.textContent),
    ).toEqual(['Listing: iPhone 15 Pro 256 GB', 'Listing: Pixel 8 128 GB', 'Account: Max Again']);
    expect(screen.getByRole('link', { name: 'To review (3)' })).toHaveAttribute(
      'aria-current',
      'page',
    );

    const first = card('Listing: iPhone 15 Pro 256 GB');
    expect(within(first).getByText('Risk score 90')).toBeInTheDocument();
    expect(within(first).getByText('Held')).toBeInTheDocument();
    expect(within(first).getByText('Not shown to buyers until cleared.')).toBeInTheDocument();
    expect(
      within(first).getByText(
        "Priced at 20% of the guide's $900 for this model, storage and condition.",
      ),
    ).toBeInTheDocument();
    expect(within(first).getByText("A photo is already used on another seller's listing."));
    expect(within(first).getByText('(40 points)')).toBeInTheDocument();
    // The photo beside the one it copies, each captioned, the other listing a link away.
    const mine = within(first).getByRole('img', { name: 'Photo 1 of iPhone 15 Pro 256 GB' });
    expect(mine).toHaveAttribute('src', '/images/aaaa-640.webp');
    expect(mine.closest('figure')).toHaveTextContent('This listing');
    const theirs = within(first).getByRole('img', {
      name: 'The photo of another listing that matches photo 1 of iPhone 15 Pro 256 GB',
    });
    expect(theirs).toHaveAttribute('src', '/images/cccc-640.webp');
    expect(theirs.closest('figure')).toHaveTextContent('Matches a photo of another listing');
    expect(
      within(first).getByRole('link', {
        name: 'Open the other listing (its photo matching photo 1)',
      }),
    ).toHaveAttribute('href', `/product/${id(50)}`);
    expect(within(first).getByText('The same picture')).toBeInTheDocument();
    expect(within(first).getByText('$180 (20% of the guide)')).toBeInTheDocument();
    expect(within(first).getByText('$900')).toBeInTheDocument();
    expect(within(first).getByText('Sam Quick (sam@example.com)', { selector: 'dd' }));
    expect(
      within(first).getByText('Joined Nov 20, 2026 · 5 listings · 0 sales · 1 dispute'),
    ).toBeInTheDocument();
    expect(within(first).getByRole('heading', { name: 'Reports (1)' })).toBeInTheDocument();
    expect(within(first).getByText('Scam, or too good to be true')).toBeInTheDocument();
    expect(within(first).getByText('Half the price of every other one.')).toBeInTheDocument();
    expect(within(first).getByText(/^By Bea Careful, Nov 25, 2026/)).toBeInTheDocument();

    // A listing with no match shows its own photos; one not held is cleared, not put on sale.
    const second = card('Listing: Pixel 8 128 GB');
    expect(within(second).queryByText('Held')).not.toBeInTheDocument();
    expect(within(second).getAllByRole('img')).toHaveLength(2);
    expect(within(second).getByText('Wrong details')).toBeInTheDocument();
    expect(within(second).getByRole('button', { name: 'Clear Pixel 8 128 GB' })).toBeEnabled();

    // An account: its signals, a clear of its own and a ban; no listing to withdraw.
    const third = card('Account: Max Again');
    expect(within(third).getByText('Shares a card with a banned account.')).toBeInTheDocument();
    expect(
      within(third)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Clear Max Again', 'Ban account of Max Again (max2@example.com)']);
  });

  it('clears a held listing in one click, tells so, reads the queue again and focuses the next item', async () => {
    const { sent } = renderPage({ queue: [copied, reported], after: [reported] });
    await userEvent.click(
      await screen.findByRole('button', { name: 'Clear: put on sale iPhone 15 Pro 256 GB' }),
    );
    expect(await screen.findByText('iPhone 15 Pro 256 GB is cleared.')).toBeInTheDocument();
    expect(sent).toEqual([
      {
        method: 'POST',
        url: '/api/review/actions',
        body: { target: 'listing', id: id(1), action: 'clear', note: '' },
      },
    ]);
    await waitFor(() =>
      expect(screen.queryByRole('article', { name: /iPhone 15/ })).not.toBeInTheDocument(),
    );
    await waitFor(() =>
      expect(screen.getByRole('heading', { name: 'Listing: Pixel 8 128 GB' })).toHaveFocus(),
    );
    expect(screen.getByRole('link', { name: 'To review (1)' })).toBeInTheDocument();
  });

  it('withdraws a listing only once asked, with the note the record keeps', async () => {
    const { sent } = renderPage({ queue: [copied, reported], after: [reported] });
    const withdraw = await screen.findByRole('button', {
      name: 'Withdraw listing iPhone 15 Pro 256 GB',
    });
    await userEvent.click(withdraw);
    let dialog = screen.getByRole('dialog', { name: 'Withdraw iPhone 15 Pro 256 GB?' });
    expect(dialog).toHaveTextContent('The listing comes off sale for good');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(sent).toEqual([]);

    await userEvent.click(withdraw);
    dialog = screen.getByRole('dialog', { name: 'Withdraw iPhone 15 Pro 256 GB?' });
    await userEvent.type(
      within(dialog).getByLabelText('Note for the record (optional)'),
      '  Photos copied from listing 50.  ',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Withdraw listing' }));
    expect(await screen.findByText('iPhone 15 Pro 256 GB is withdrawn.')).toBeInTheDocument();
    expect(sent.map((s) => s.body)).toEqual([
      { target: 'listing', id: id(1), action: 'withdraw', note: 'Photos copied from listing 50.' },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() =>
      expect(screen.getByRole('heading', { name: 'Listing: Pixel 8 128 GB' })).toHaveFocus(),
    );
  });

  it("bans a listing's seller, saying what a ban does", async () => {
    const { sent } = renderPage({ queue: [copied, account], after: [account] });
    await userEvent.click(
      await screen.findByRole('button', { name: 'Ban account of Sam Quick (sam@example.com)' }),
    );
    const dialog = screen.getByRole('dialog', { name: 'Ban Sam Quick (sam@example.com)?' });
    expect(dialog).toHaveTextContent(
      'This deletes the account and bans its e-mail, addresses, cards and IMEIs.',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Ban account' }));
    expect(
      await screen.findByText('Sam Quick is banned and the account deleted.'),
    ).toBeInTheDocument();
    expect(sent.map((s) => s.body)).toEqual([
      { target: 'account', id: SELLER._id, action: 'ban', note: '' },
    ]);
  });

  it('bans an account item by its own id, and says the queue is empty after the last one', async () => {
    const { sent } = renderPage({ queue: [account], after: [] });
    await userEvent.click(await screen.findByRole('button', { name: /^Ban account/ }));
    await userEvent.click(
      within(screen.getByRole('dialog')).getByRole('button', { name: 'Ban account' }),
    );
    expect(await screen.findByText('Nothing to review')).toBeInTheDocument();
    expect(sent.map((s) => s.body)).toEqual([
      { target: 'account', id: id(92), action: 'ban', note: '' },
    ]);
    await waitFor(() => expect(screen.getByText('Nothing to review')).toHaveFocus());
  });

  it('clears an account item by its own id, in one click', async () => {
    const { sent } = renderPage({ queue: [account], after: [] });
    await userEvent.click(await screen.findByRole('button', { name: 'Clear Max Again' }));
    expect(await screen.findByText('Max Again is cleared.')).toBeInTheDocument();
    expect(sent.map((s) => s.body)).toEqual([
      { target: 'account', id: id(92), action: 'clear', note: '' },
    ]);
  });

  it('dismisses a report, the item staying in focus while it is still in the queue', async () => {
    const { sent } = renderPage({
      queue: [copied, reported],
      after: [{ ...copied, reports: [] }, reported],
    });
    await userEvent.click(
      await screen.findByRole('button', {
        name: 'Dismiss the report by Bea Careful on iPhone 15 Pro 256 GB',
      }),
    );
    expect(await screen.findByText('The report is dismissed.')).toBeInTheDocument();
    expect(sent.map((s) => s.body)).toEqual([
      { target: 'report', id: id(70), action: 'dismiss', note: '' },
    ]);
    await waitFor(() =>
      expect(screen.getByRole('heading', { name: 'Listing: iPhone 15 Pro 256 GB' })).toHaveFocus(),
    );
    expect(
      within(card('Listing: iPhone 15 Pro 256 GB')).queryByRole('heading', { name: /Reports/ }),
    ).not.toBeInTheDocument();
  });

  it("tells the server's refusal and leaves the queue as it was", async () => {
    renderPage({
      queue: [copied],
      decide: () => Response.json({ message: 'The listing is already sold.' }, { status: 409 }),
    });
    await userEvent.click(
      await screen.findByRole('button', { name: 'Clear: put on sale iPhone 15 Pro 256 GB' }),
    );
    expect(await screen.findByText('The listing is already sold.')).toBeInTheDocument();
    expect(card('Listing: iPhone 15 Pro 256 GB')).toBeInTheDocument();
  });

  it('says so when there is nothing to review', async () => {
    renderPage({ queue: [] });
    expect(await screen.findByText('Nothing to review')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'To review (0)' })).toBeInTheDocument();
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
  });

  it('lists the decisions taken, newest first, a page at a time', async () => {
    const { router } = renderPage({
      queue: [copied],
      pages: [
        [
          record(1, { note: 'Copied photos.' }),
          record(2, { target: 'account', subject: 'Sam Quick', action: 'ban' }),
        ],
        [record(3, { target: 'report', subject: 'A report on Pixel 8', action: 'dismiss' })],
      ],
    });
    await userEvent.click(await screen.findByRole('link', { name: 'Decisions' }));
    const table = await screen.findByRole('table');
    expect(router.state.location.search).toBe('?show=decisions');
    expect(screen.getByRole('link', { name: 'Decisions' })).toHaveAttribute('aria-current', 'page');
    let rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Listing: Listing 1');
    expect(rows[0]).toHaveTextContent('Withdrew');
    expect(rows[0]).toHaveTextContent('Ada Admin');
    expect(rows[0]).toHaveTextContent('Nov 26, 2026');
    expect(rows[0]).toHaveTextContent('Copied photos.');
    expect(rows[1]).toHaveTextContent('Account: Sam Quick');
    expect(rows[1]).toHaveTextContent('Banned');

    await userEvent.click(screen.getByRole('button', { name: 'Show more' }));
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(4));
    rows = within(table).getAllByRole('row').slice(1);
    expect(rows[2]).toHaveTextContent('Report: A report on Pixel 8');
    expect(rows[2]).toHaveTextContent('Dismissed');
    expect(screen.queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument();
  });

  it('says so when no decision is taken yet', async () => {
    renderPage({ queue: [], path: '/dashboard/review?show=decisions' });
    expect(await screen.findByText('No decision yet.')).toBeInTheDocument();
  });
});
