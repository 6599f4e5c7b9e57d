import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SignInRoute } from './sign-in';
import { SignUpRoute } from './sign-up';

afterEach(() => vi.unstubAllGlobals());

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/signin', Component: SignInRoute, loader: () => ({ error: null }) },
      { path: '/signup', Component: SignUpRoute },
      { path: '/signup/:role', Component: SignUpRoute },
      { path: '/', element: <p>home</p> },
      { path: '/category/:id', element: <p>brand page</p> },
    ],
    { initialEntries: [path] },
  );
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

const CONFIG = {
  identity: { google: true },
  payments: { provider: 'embedded', publishableKey: null },
  images: { provider: 'embedded', uploadUrl: '/api/images' },
};

/** Answers the config call and refuses every identity call with `refusal`; returns the calls made. */
function stubFetch(
  refusal: { code: string; status: number } = { code: 'INVALID_EMAIL_OR_PASSWORD', status: 401 },
) {
  const identityCalls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (url === '/api/config') return Response.json(CONFIG);
      identityCalls.push(url);
      return Response.json({ code: refusal.code }, { status: refusal.status });
    }),
  );
  return identityCalls;
}

const HOUR_TOKEN = `e30.${btoa(JSON.stringify({ exp: Math.floor(Date.now() / 1000) + 3600 }))}.sig`;

/** A sign-up the identity provider, the user record and the token all accept. */
function stubAcceptingFetch() {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (url === '/api/config') return Response.json(CONFIG);
      if (url === '/api/auth/sign-up/email')
        return Response.json({ user: { id: 'u1', email: 'pat@example.com', name: 'Pat' } });
      if (url === '/api/users') return Response.json({ acknowledged: true });
      // Valid for an hour, so no renewal fires during the other tests.
      if (url.startsWith('/api/jwt')) return Response.json({ accessToken: HOUR_TOKEN });
      return Response.json({ message: 'unexpected' }, { status: 500 });
    }),
  );
}

async function fillSignUp(email: string) {
  await userEvent.type(await screen.findByLabelText('Name'), 'Pat');
  await userEvent.type(screen.getByLabelText('Email'), email);
  await userEvent.type(screen.getByLabelText('Password'), 'Abcdef1!');
  await userEvent.click(screen.getByRole('button', { name: 'Sign up' }));
}

const BACK_TO_PHONE = '/category/03?book=7b0a3c1e-0000-4000-8000-000000000001';

describe('sign-in form', () => {
  it('requires an email and a password, and sends nothing until both are there', async () => {
    const identityCalls = stubFetch();
    renderAt('/signin');
    await userEvent.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(identityCalls).toEqual([]);
  });

  it('re-validates on change once submitted', async () => {
    stubFetch();
    renderAt('/signin');
    await userEvent.click(await screen.findByRole('button', { name: 'Sign in' }));
    await userEvent.type(screen.getByLabelText('Email'), 'a@b.co');
    expect(screen.queryByText('Email is required')).not.toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
  });

  it("shows the provider's code text when the password is wrong", async () => {
    stubFetch();
    renderAt('/signin');
    await userEvent.type(await screen.findByLabelText('Email'), 'buyer@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'Wrong-Pass1!');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(/^wrong-password$/);
    expect(alert).toHaveAccessibleDescription(
      'The e-mail address or the password is not right. Check both, then try again.',
    );
  });

  it('says no more of an unknown address than of a wrong password', async () => {
    stubFetch({ code: 'USER_NOT_FOUND', status: 401 });
    renderAt('/signin');
    await userEvent.type(await screen.findByLabelText('Email'), 'nobody@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'Wrong-Pass1!');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveAccessibleDescription(
      'The e-mail address or the password is not right. Check both, then try again.',
    );
  });

  it('says to wait a few minutes after too many tries', async () => {
    stubFetch({ code: 'TOO_MANY_REQUESTS', status: 429 });
    renderAt('/signin');
    await userEvent.type(await screen.findByLabelText('Email'), 'buyer@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'Wrong-Pass1!');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^too-many-requests$/);
    expect(screen.getByText(/wait a few minutes/)).toBeInTheDocument();
  });

  it('keeps the page to return to on its sign-up link', async () => {
    stubFetch();
    renderAt(`/signin?from=${encodeURIComponent(BACK_TO_PHONE)}`);
    expect(await screen.findByRole('link', { name: 'Create an account' })).toHaveAttribute(
      'href',
      `/signup?from=${encodeURIComponent(BACK_TO_PHONE)}`,
    );
  });
});

describe('Google sign-in', () => {
  it('waits for the configuration when clicked before it has loaded, then leaves for Google', async () => {
    let answerConfig: () => void = () => {};
    const identityCalls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (url === '/api/config')
          return new Promise<Response>((resolve) => {
            answerConfig = () => resolve(Response.json(CONFIG));
          });
        identityCalls.push(url);
        // An answer that cannot be followed, so the test page stays where it is.
        return Response.json({ code: 'OPERATION_NOT_ALLOWED' }, { status: 400 });
      }),
    );
    renderAt('/signin');
    await userEvent.click(await screen.findByRole('button', { name: 'Continue with Google' }));
    expect(identityCalls).toEqual([]);
    answerConfig();
    await vi.waitFor(() => expect(identityCalls).toEqual(['/api/auth/sign-in/social']));
  });
});

describe('sign-up form', () => {
  it('asks to choose an account type first, with links to both forms', async () => {
    renderAt('/signup');
    expect(
      await screen.findByRole('heading', { name: 'Please choose an account type first' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'User Account' })).toHaveAttribute(
      'href',
      '/signup/user',
    );
    expect(screen.getByRole('link', { name: 'Seller Account' })).toHaveAttribute(
      'href',
      '/signup/seller',
    );
    expect(screen.getByRole('heading', { name: 'Sign up as User' })).toBeInTheDocument();
  });

  it('offers social sign-up only for a user account', async () => {
    renderAt('/signup/seller');
    expect(await screen.findByRole('heading', { name: 'Sign up as Seller' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Continue with Google' })).not.toBeInTheDocument();
  });

  it('requires a name, an email and a password', async () => {
    const identityCalls = stubFetch();
    renderAt('/signup/user');
    await userEvent.click(await screen.findByRole('button', { name: 'Sign up' }));
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(identityCalls).toEqual([]);
  });

  it('shows invalid-email, and what it means, for an address the provider refuses', async () => {
    stubFetch({ code: 'INVALID_EMAIL', status: 400 });
    renderAt('/signup/user');
    await fillSignUp('pat.example.com');
    expect(await screen.findByRole('alert')).toHaveTextContent(/^invalid-email$/);
    expect(screen.getByText(/not a valid e-mail address/)).toBeInTheDocument();
  });

  it('goes to the remembered page after signing up, and keeps it on every link', async () => {
    stubAcceptingFetch();
    const router = renderAt(`/signup?from=${encodeURIComponent(BACK_TO_PHONE)}`);
    const carried = `?from=${encodeURIComponent(BACK_TO_PHONE)}`;
    expect(await screen.findByRole('link', { name: 'Seller Account' })).toHaveAttribute(
      'href',
      `/signup/seller${carried}`,
    );
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute(
      'href',
      `/signin${carried}`,
    );
    await fillSignUp('pat@example.com');
    expect(await screen.findByText('brand page')).toBeInTheDocument();
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(BACK_TO_PHONE);
  });

  it('goes nowhere but this site, whatever the remembered page says', async () => {
    stubAcceptingFetch();
    renderAt('/signup/user?from=%2F%5Cevil.example');
    await fillSignUp('pat@example.com');
    expect(await screen.findByText('home')).toBeInTheDocument();
  });

  it.each([
    ['Ab1!', 'password atleast 6 characters'],
    ['abcdef1!', 'password must have uppercase, number and special character'],
    ['ABCDEF1!', 'password must have uppercase, number and special character'],
    ['Abcdefg!', 'password must have uppercase, number and special character'],
    ['Abcdefg1', 'password must have uppercase, number and special character'],
  ])('refuses the password %s with "%s" below the field', async (password, message) => {
    const identityCalls = stubFetch();
    renderAt('/signup/user');
    await userEvent.type(await screen.findByLabelText('Name'), 'Pat');
    await userEvent.type(screen.getByLabelText('Email'), 'pat@example.com');
    await userEvent.type(screen.getByLabelText('Password'), password);
    await userEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    const error = await screen.findByText(message);
    expect(screen.getByLabelText('Password')).toHaveAttribute('aria-describedby', error.id);
    expect(identityCalls).toEqual([]);
  });
});
