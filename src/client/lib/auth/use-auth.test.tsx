// @vitest-environment jsdom
/**
 * Hydration of a page that reads the session re-renders nothing until the session is known, and
 * a visitor's session resolving to no one re-renders only what shows the session (issue 23: a
 * post-hydration re-render of a brand page was a whole extra long task on a slow phone).
 */
import { act } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { session } from './session';
import { useAuth, useAuthUser } from './use-auth';

const renders = { session: 0, user: 0 };

/** Shows the session: re-renders when it is known. */
function SessionView() {
  renders.session++;
  const { loading, user } = useAuth();
  return <p>{loading ? 'checking' : (user?.email ?? 'signed out')}</p>;
}

/** Like a brand page's cards: shows only whether someone is signed in. */
function Cards() {
  renders.user++;
  const user = useAuthUser();
  return <p>{user ? 'buyer' : 'anyone'}</p>;
}

beforeEach(() => {
  // A visitor: the identity provider knows no session.
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Response.json(null)),
  );
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
});

afterEach(() => {
  vi.unstubAllGlobals();
});

it('hydrates without a re-render, and a visitor resolving re-renders only the session view', async () => {
  const page = (
    <div>
      <SessionView />
      <Cards />
    </div>
  );
  const container = document.createElement('div');
  container.innerHTML = renderToString(page);
  document.body.append(container);
  renders.session = 0;
  renders.user = 0;

  await act(async () => {
    hydrateRoot(container, page);
  });
  expect(renders).toEqual({ session: 1, user: 1 });
  expect(container.textContent).toBe('checkinganyone');

  await act(async () => {
    await session.start();
  });
  expect(container.textContent).toBe('signed outanyone');
  expect(renders).toEqual({ session: 2, user: 1 });
  container.remove();
});
