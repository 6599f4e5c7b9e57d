import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, onTestFinished } from 'vitest';
import { NavSearch } from './nav-search';

const Page = () => <NavSearch id="nav-search" />;

/** The box on any page (a route with it, `/` or `/search`), and where the router is. */
function renderAt(url: string) {
  const router = createMemoryRouter(
    [
      { path: '/', Component: Page },
      { path: '/search', Component: Page },
    ],
    { initialEntries: [url] },
  );
  render(<RouterProvider router={router} />);
  return { router, box: () => screen.getByRole('searchbox', { name: 'Search phones' }) };
}

describe('the navigation bar search box', () => {
  it('goes to /search with the words, from any page', async () => {
    const user = userEvent.setup();
    const { router, box } = renderAt('/');
    expect(box()).toHaveValue('');
    await user.type(box(), '  iphone 13 {Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/search'));
    expect(router.state.location.search).toBe('?q=iphone+13');
  });

  it("shows the search's words on /search, and a new search keeps its filters", async () => {
    const user = userEvent.setup();
    const { router, box } = renderAt('/search?q=pixel&ram=8+GB&sort=price-asc');
    expect(box()).toHaveValue('pixel');
    await user.clear(box());
    await user.type(box(), 'galaxy');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() =>
      expect(router.state.location.search).toBe('?q=galaxy&ram=8+GB&sort=price-asc'),
    );
  });

  it('follows the URL back and forward, and is empty on other pages', async () => {
    const user = userEvent.setup();
    const { router, box } = renderAt('/search?q=pixel');
    await user.clear(box());
    await user.type(box(), 'oppo{Enter}');
    await waitFor(() => expect(router.state.location.search).toBe('?q=oppo'));
    await router.navigate(-1);
    await waitFor(() => expect(box()).toHaveValue('pixel'));
    await router.navigate('/');
    await waitFor(() => expect(box()).toHaveValue(''));
  });

  it('keeps the words typed before the page hydrated, and searches them', async () => {
    const routes = [
      { path: '/', Component: Page },
      { path: '/search', Component: Page },
    ];
    const container = document.createElement('div');
    document.body.append(container);
    onTestFinished(() => container.remove());
    container.innerHTML = renderToString(
      <RouterProvider router={createMemoryRouter(routes, { initialEntries: ['/'] })} />,
    );
    // A visitor on a slow phone types into the server's box before the app has started.
    const early = container.querySelector('input') as HTMLInputElement;
    early.value = 'iphnoe 13';
    const router = createMemoryRouter(routes, { initialEntries: ['/'] });
    await act(async () => {
      hydrateRoot(container, <RouterProvider router={router} />);
    });
    const box = screen.getByRole('searchbox', { name: 'Search phones' });
    expect(box).toHaveValue('iphnoe 13');
    await userEvent.setup().type(box, '{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/search'));
    expect(router.state.location.search).toBe('?q=iphnoe+13');
  });

  it('searches everything when the box is empty', async () => {
    const user = userEvent.setup();
    const { router, box } = renderAt('/search?q=pixel&brand=02');
    await user.clear(box());
    await user.keyboard('{Enter}');
    await waitFor(() => expect(router.state.location.search).toBe('?brand=02'));
  });

  it('is a plain GET form to /search, for the moment before the page is interactive', () => {
    const { box } = renderAt('/');
    const form = box().closest('form');
    expect(form).toHaveAttribute('method', 'get');
    expect(form).toHaveAttribute('action', '/search');
    expect(box()).toHaveAttribute('name', 'q');
  });
});
