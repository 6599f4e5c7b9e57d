import { session } from '@client/lib/auth/session';
import { ACCESS_TOKEN_STORAGE_KEY } from '@shared/constants';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster } from 'react-hot-toast';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ReportButton } from './report-button';

type User = { uid: string; email: string; displayName: string };
const auth = vi.hoisted(() => ({ user: null as User | null }));
vi.mock('@client/lib/auth/use-auth', () => ({
  useAuthUser: () => auth.user,
  useAuth: () => ({ loading: false, user: auth.user }),
}));

const BEA: User = { uid: 'u1', email: 'bea@example.com', displayName: 'Bea Buyer' };
const PHONE = '7b0a3c1e-0000-4000-8000-000000000001';
const SELLER = '7b0a3c1e-0000-4000-8000-0000000000aa';
const BEA_ACCOUNT = '7b0a3c1e-0000-4000-8000-0000000000bb';

/** A token as the server issues it, as far as the page reads one: its subject. */
const tokenFor = (sub: string) =>
  `e30.${btoa(JSON.stringify({ sub, exp: 4_000_000_000 })).replace(/=+$/, '')}.sig`;

type Sent = { method: string; url: string; body: unknown };

function stubApi(answer: () => Response) {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      sent.push({
        method: init.method ?? 'GET',
        url,
        body: init.body ? JSON.parse(String(init.body)) : undefined,
      });
      if (url.endsWith('/reports')) return answer();
      return Response.json({ message: 'Not found' }, { status: 404 });
    }),
  );
  return sent;
}

function renderButton(url = `/product/${PHONE}`) {
  const router = createMemoryRouter(
    [
      {
        path: '/product/:id',
        element: (
          <ReportButton
            kind="listing"
            id={PHONE}
            name="iPhone 13, 128 GB, Good"
            sellerId={SELLER}
          />
        ),
      },
      { path: '/signin', element: <p>sign in page</p> },
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

const signIn = (user: User | null, account = BEA_ACCOUNT) => {
  auth.user = user;
  if (user) localStorage.setItem(ACCESS_TOKEN_STORAGE_KEY, tokenFor(account));
  vi.spyOn(session, 'currentUser').mockResolvedValue(user);
};

beforeEach(() => vi.stubGlobal('matchMedia', () => ({ matches: false })));
afterEach(() => {
  auth.user = null;
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('Report this listing (issue 34)', () => {
  it('asks for a reason from the list, then sends it with the note and thanks the reporter', async () => {
    signIn(BEA);
    const sent = stubApi(() => Response.json({ acknowledged: true }));
    renderButton();
    await userEvent.click(screen.getByRole('button', { name: 'Report this listing' }));
    const dialog = await screen.findByRole('dialog', { name: 'Report this listing' });
    // Its body is made just after it opens (decision 062).
    await within(dialog).findByRole('group', { name: 'Why are you reporting it?' });
    expect(dialog).toHaveTextContent('iPhone 13, 128 GB, Good');
    const reasons = within(dialog).getByRole('group', { name: 'Why are you reporting it?' });
    expect(
      within(reasons)
        .getAllByRole('radio')
        .map((r) => r.closest('label')?.textContent),
    ).toEqual([
      'Scam, or too good to be true',
      'The phone may be stolen',
      'Wrong details',
      'Offensive',
      'Something else',
    ]);

    // No reason: said beside the list, the first choice focused, nothing sent.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Choose a reason.');
    expect(within(reasons).getAllByRole('radio')[0]).toHaveFocus();
    expect(sent).toEqual([]);

    await userEvent.click(within(reasons).getByRole('radio', { name: 'The phone may be stolen' }));
    await userEvent.type(
      within(dialog).getByLabelText('Anything that would help us (optional)'),
      '  Its IMEI is on a stolen list  ',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Thanks: your report was sent.')).toBeInTheDocument();
    expect(sent).toEqual([
      {
        method: 'POST',
        url: `/api/products/${PHONE}/reports`,
        body: { reason: 'stolen', note: 'Its IMEI is on a stolen list' },
      },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it("keeps the dialog open and shows the server's refusal in its words", async () => {
    signIn(BEA);
    stubApi(() =>
      Response.json({ message: 'You have already reported this listing.' }, { status: 409 }),
    );
    renderButton();
    await userEvent.click(screen.getByRole('button', { name: 'Report this listing' }));
    const dialog = await screen.findByRole('dialog', { name: 'Report this listing' });
    // Its body is made just after it opens (decision 062).
    await within(dialog).findByRole('group', { name: 'Why are you reporting it?' });
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Wrong details' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'You have already reported this listing.',
    );
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('shows nothing to the seller of the listing', () => {
    signIn({ ...BEA, email: 'sam@example.com' }, SELLER);
    renderButton();
    expect(screen.queryByRole('button', { name: 'Report this listing' })).not.toBeInTheDocument();
  });

  it('sends a visitor to sign in, and back with the dialog open', async () => {
    signIn(null);
    const sent = stubApi(() => Response.json({ acknowledged: true }));
    const router = renderButton();
    await userEvent.click(screen.getByRole('button', { name: 'Report this listing' }));
    await screen.findByText('sign in page');
    const from = `/product/${PHONE}?report=1`;
    expect(router.state.location.search).toBe(`?from=${encodeURIComponent(from)}`);
    expect(sent).toEqual([]);
  });

  it('opens the dialog on coming back signed in, and takes the parameter out of the URL', async () => {
    signIn(BEA);
    const router = renderButton(`/product/${PHONE}?report=1`);
    expect(await screen.findByRole('dialog', { name: 'Report this listing' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('');
  });
});
