import type { Answer } from '@client/lib/api-client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { bulkUploadQueryOptions, bulkUploadsQueryOptions } from '../api/bulk-uploads';
import { AddManyRoute } from './add-many';

const ID = '7b0a3c1e-0000-4000-8000-0000000000b1';
const PRODUCT = '7b0a3c1e-0000-4000-8000-0000000000c1';

let fetchMock: ReturnType<typeof vi.fn>;
beforeEach(() => {
  fetchMock = vi.fn();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

type Upload = Answer<'bulkUpload'>;
const upload = (over: Partial<Upload>): Upload => ({
  id: ID,
  status: 'preview',
  message: null,
  createdAt: '2026-11-27T10:00:00.000Z',
  rowsTotal: 3,
  rowsReady: 2,
  rowsDone: 0,
  rowsListed: 0,
  photosTotal: 4,
  photosDone: 4,
  rows: [
    { row: 2, model: 'Galaxy S23', problems: [] },
    {
      row: 3,
      model: 'Pixel 8',
      problems: [
        {
          column: 'Resale price ($)',
          message: 'Resale price ($): write the price in dollars, such as 1200, $1,200 or 1,200.50',
        },
        { column: 'Photos', message: 'Photos: back.jpg: is not in the ZIP' },
      ],
    },
    { row: 4, model: 'iPhone 13', problems: [] },
  ],
  ...over,
});

function renderPage(shown: Upload | null) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(bulkUploadsQueryOptions().queryKey, shown ? [shown] : []);
  if (shown) queryClient.setQueryData(bulkUploadQueryOptions(shown.id).queryKey, shown);
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider
        router={createMemoryRouter([{ path: '/', Component: AddManyRoute }], {
          initialEntries: [shown ? `/?upload=${shown.id}` : '/'],
        })}
      />
    </QueryClientProvider>,
  );
}

describe('Add many phones (issue 35)', () => {
  it('shows the template, the two files and no upload yet', () => {
    renderPage(null);
    expect(screen.getByRole('heading', { level: 1, name: 'Add many phones' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Download the template (CSV)' })).toBeVisible();
    expect(screen.getByLabelText('CSV file')).toHaveAttribute('type', 'file');
    expect(screen.getByLabelText('ZIP file of the photos')).toHaveAttribute('type', 'file');
    expect(screen.queryByRole('heading', { name: 'Your uploads' })).toBeNull();
  });

  it('asks for both files before sending anything', async () => {
    renderPage(null);
    await userEvent.click(screen.getByRole('button', { name: 'Upload' }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Choose the CSV file and the ZIP file of the photos.',
    );
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows a preview: each row’s problems by column, and how many can be listed', () => {
    renderPage(upload({}));
    expect(screen.getByText('2 of 3 rows can be listed.')).toBeVisible();
    const table = screen.getByRole('table', { name: 'The rows of your file' });
    const pixel = within(table).getByRole('row', { name: /Pixel 8/ });
    expect(pixel).toHaveTextContent(
      'Resale price ($): write the price in dollars, such as 1200, $1,200 or 1,200.50',
    );
    expect(pixel).toHaveTextContent('Photos: back.jpg: is not in the ZIP');
    expect(within(table).getByRole('row', { name: /Galaxy S23/ })).toHaveTextContent(
      'Ready to list',
    );
    expect(screen.getByRole('button', { name: 'List 2 phones' })).toBeEnabled();
  });

  it('shows the progress while the photos are read, and says the page may be left', () => {
    renderPage(upload({ status: 'photos', photosDone: 1, rowsReady: 0 }));
    const bar = screen.getByRole('progressbar');
    expect(bar).toHaveAttribute('value', '1');
    expect(bar).toHaveAttribute('max', '4');
    expect(screen.getByText('Reading the photos: 1 of 4')).toBeVisible();
    expect(screen.getByText(/You can leave this page/)).toBeVisible();
    expect(screen.queryByRole('button', { name: /^List/ })).toBeNull();
  });

  it('once listed, links each listed phone and says why a row was not', () => {
    renderPage(
      upload({
        status: 'done',
        rowsDone: 2,
        rowsListed: 1,
        rows: [
          {
            row: 2,
            model: 'Galaxy S23',
            problems: [],
            outcome: { listed: true, productId: PRODUCT },
          },
          {
            row: 3,
            model: 'iPhone 13',
            problems: [],
            outcome: { listed: false, message: 'IMEI: This phone is already listed' },
          },
        ],
      }),
    );
    expect(screen.getByText('1 phone listed.')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Listed' })).toHaveAttribute(
      'href',
      `/product/${PRODUCT}`,
    );
    expect(screen.getByText('Not listed: IMEI: This phone is already listed')).toBeVisible();
  });

  it('says why a whole upload was refused', () => {
    renderPage(
      upload({ status: 'refused', message: 'The ZIP has more than 4,000 files', rowsReady: 0 }),
    );
    expect(screen.getByRole('alert')).toHaveTextContent('The ZIP has more than 4,000 files');
    expect(screen.queryByRole('button', { name: /^List/ })).toBeNull();
  });
});
