import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { NotFound } from './not-found';

describe('NotFound', () => {
  it('signs the user out and goes home from its button', async () => {
    localStorage.setItem('accessToken', 'old-token');
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
  });
});
