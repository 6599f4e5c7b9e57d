import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NotFound } from './not-found';

afterEach(() => vi.unstubAllGlobals());

describe('NotFound', () => {
  it('signs the user out and goes home from its button', async () => {
    localStorage.setItem('accessToken', 'old-token');
    const fetch = vi.fn(async () => Response.json({ success: true }));
    vi.stubGlobal('fetch', fetch);
    const router = createMemoryRouter(
      [
        { path: '/', element: <p>home page</p> },
        { path: '*', Component: NotFound },
      ],
      { initialEntries: ['/missing'] },
    );
    render(<RouterProvider router={router} />);
    expect(screen.getByText("Sorry, we couldn't find this page.")).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Back to homepage' }));
    expect(await screen.findByText('home page')).toBeInTheDocument();
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(fetch).toHaveBeenCalledWith(
      '/api/auth/sign-out',
      expect.objectContaining({ method: 'POST' }),
    );
  });
});
