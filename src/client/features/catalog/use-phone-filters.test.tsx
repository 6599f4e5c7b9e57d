import { act, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { SEARCH_SCOPE } from './phone-filters';
import { type ApplyFilters, usePhoneFilters } from './use-phone-filters';

/** The last render's filters and `apply`, handed out to the test. */
const handle: { apply?: ApplyFilters; filters?: ReturnType<typeof usePhoneFilters>['filters'] } =
  {};
function List() {
  const { filters, apply } = usePhoneFilters(SEARCH_SCOPE);
  handle.apply = apply;
  handle.filters = filters;
  return <p>storage: {filters.storage.join(',') || 'any'}</p>;
}

/** A list's filters on a router in memory. */
function setup() {
  const router = createMemoryRouter([{ path: '/search', element: <List /> }], {
    initialEntries: ['/search'],
  });
  const view = render(<RouterProvider router={router} />);
  return { router, handle, view };
}

describe('usePhoneFilters (decision 063: the navigation after the paint)', () => {
  it('shows a change at once, and navigates once the frame has painted', async () => {
    const { router, handle } = setup();
    const filters = handle.filters;
    if (!filters || !handle.apply) throw new Error('not rendered');
    act(() => handle.apply?.({ ...filters, storage: ['128 GB'] }));
    expect(screen.getByText('storage: 128 GB')).toBeInTheDocument();
    expect(router.state.location.search).toBe('');
    await waitFor(() => expect(router.state.location.search).toContain('storage=128'));
  });

  it('takes the waiting change’s place when a second comes before the paint: one step back undoes both', async () => {
    const { router, handle } = setup();
    const filters = handle.filters;
    if (!filters || !handle.apply) throw new Error('not rendered');
    act(() => {
      handle.apply?.({ ...filters, storage: ['128 GB'] });
      handle.apply?.({ ...filters, storage: ['128 GB', '256 GB'] });
    });
    await waitFor(() => expect(router.state.location.search).toContain('256'));
    expect(screen.getByText('storage: 128 GB,256 GB')).toBeInTheDocument();
    await act(() => router.navigate(-1));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(screen.getByText('storage: any')).toBeInTheDocument();
  });

  it('calls off a change still waiting when the list is left', async () => {
    const { router, handle, view } = setup();
    const filters = handle.filters;
    if (!filters || !handle.apply) throw new Error('not rendered');
    act(() => handle.apply?.({ ...filters, storage: ['128 GB'] }));
    view.unmount();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(router.state.location.search).toBe('');
  });
});
