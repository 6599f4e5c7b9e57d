import { EMAIL_CONFIRMED_PATH } from '@shared/identity';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { EmailConfirmedRoute } from './email-confirmed';

const open = (url: string) =>
  render(
    <RouterProvider
      router={createMemoryRouter([{ path: EMAIL_CONFIRMED_PATH, Component: EmailConfirmedRoute }], {
        initialEntries: [url],
      })}
    />,
  );

describe('the page the confirmation link lands on (issue 31)', () => {
  it('says the address is confirmed', () => {
    open(EMAIL_CONFIRMED_PATH);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(
      'Your e-mail address is confirmed',
    );
    expect(screen.getByRole('link', { name: 'Browse phones' })).toHaveAttribute('href', '/');
  });

  it('says a link that expired or was used did not confirm it, and that the account works', () => {
    open(`${EMAIL_CONFIRMED_PATH}?error=INVALID_TOKEN`);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(
      'This link did not confirm your address',
    );
    expect(screen.getByRole('status')).toHaveTextContent(/expired or was used already/);
  });
});
