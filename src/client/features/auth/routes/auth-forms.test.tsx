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

/** Answers the config call and refuses every sign-in; returns the identity calls made. */
function stubFetch() {
  const identityCalls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (url === '/api/config') return Response.json(CONFIG);
      identityCalls.push(url);
      return Response.json({ code: 'INVALID_EMAIL_OR_PASSWORD' }, { status: 401 });
    }),
  );
  return identityCalls;
}

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
    expect(await screen.findByRole('alert')).toHaveTextContent('wrong-password');
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
