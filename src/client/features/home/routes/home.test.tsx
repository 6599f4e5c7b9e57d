import type { AdvertisedItem, Category } from '@shared/entities';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { advertisedQueryOptions } from '../api/get-advertised';
import { categoriesQueryOptions } from '../api/get-categories';
import { HomeRoute } from './home';

const categories: Category[] = [
  { _id: '7b0a3c1e-0000-4000-8000-0000000000a1', name: 'Apple', categoryId: '01' },
  { _id: '7b0a3c1e-0000-4000-8000-0000000000a2', name: 'Samsung', categoryId: '02' },
];
const ad: AdvertisedItem = {
  _id: '7b0a3c1e-0000-4000-8000-0000000000b1',
  modelName: 'Poco F5',
  image: '/images/0123456789abcdef0123456789abcdef-640.webp',
  price: 279,
  feature: { ram: '12 GB', storage: '256 GB', color: 'Black', battery: 5000 },
  advertiseId: '7b0a3c1e-0000-4000-8000-0000000000c1',
  location: 'Denver, CO',
  timeUsed: 9,
  categoryId: '05',
};

function renderHome(advertised: AdvertisedItem[]) {
  const queryClient = new QueryClient();
  queryClient.setQueryData(categoriesQueryOptions().queryKey, categories);
  queryClient.setQueryData(advertisedQueryOptions().queryKey, advertised);
  return render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter>
        <HomeRoute />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('HomeRoute', () => {
  it('links each category to its page', () => {
    renderHome([]);
    expect(screen.getByRole('link', { name: 'Apple' })).toHaveAttribute('href', '/category/01');
    expect(screen.getByRole('link', { name: 'Samsung' })).toHaveAttribute('href', '/category/02');
  });

  it('hides the advertised grid when nothing is advertised', () => {
    renderHome([]);
    expect(
      screen.queryByRole('heading', { name: 'Advertise of Products' }),
    ).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'User Feedback About Us' })).toBeInTheDocument();
  });

  it('shows advertised phones with their price and features', () => {
    renderHome([ad]);
    expect(screen.getByRole('heading', { name: 'Advertise of Products' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Poco F5' })).toBeInTheDocument();
    expect(screen.getByText('$279')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Poco F5 in Black' })).toBeInTheDocument();
  });
});
