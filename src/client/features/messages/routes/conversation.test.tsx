import type { Conversation, Message } from '@shared/entities';
import { OFF_PLATFORM_WARNING } from '@shared/risk-names';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { conversationQueryOptions } from '../api/messages';
import { ConversationRoute } from './conversation';

const id = (n: number) => `7b0a3c1e-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`;

const message = (n: number, changes: Partial<Message> = {}): Message => ({
  _id: id(n),
  body: `Message ${n}`,
  mine: false,
  senderName: 'Sam Quick',
  at: '2026-11-26T10:00:00.000Z',
  hidden: false,
  offPlatform: false,
  reported: false,
  ...changes,
});

const conversation = (messages: Message[]): Conversation => ({
  _id: id(1),
  productId: id(2),
  productName: 'iPhone 15 Pro',
  side: 'buyer',
  counterpartName: 'Sam Quick',
  unread: false,
  buyerName: 'Bea Careful',
  sellerName: 'Sam Quick',
  paid: false,
  messages,
});

function renderConversation(c: Conversation) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(conversationQueryOptions(c._id).queryKey, c);
  const router = createMemoryRouter(
    [{ path: '/dashboard/messages/:id', Component: ConversationRoute }],
    { initialEntries: [`/dashboard/messages/${c._id}`] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  vi.stubGlobal('fetch', vi.fn());
  // jsdom does not lay out: the page scrolls its newest message into view.
  Element.prototype.scrollIntoView = vi.fn();
});
afterEach(() => vi.unstubAllGlobals());

const item = (body: string) =>
  screen.getByText(body, { selector: '.chat-bubble' }).closest('li') as HTMLElement;

describe('a message asking to pay outside the marketplace (issue 34)', () => {
  it('is shown to its receiver with the warning attached, said as a warning', () => {
    renderConversation(
      conversation([
        message(3, { body: 'Is it unlocked?', mine: true, senderName: 'Bea Careful' }),
        message(4, { body: 'Pay me with a gift card to save the fee', offPlatform: true }),
        message(5, { body: 'It is unlocked.' }),
      ]),
    );
    const warned = item('Pay me with a gift card to save the fee');
    expect(within(warned).getByText(OFF_PLATFORM_WARNING)).toBeVisible();
    // Read as one sentence after the message: a word for screen readers, the icon left out.
    const warning = within(warned).getByText(OFF_PLATFORM_WARNING).closest('p') as HTMLElement;
    expect(warning).toHaveTextContent(`Warning: ${OFF_PLATFORM_WARNING}`);
    expect(warning).toHaveClass('alert');
    expect(warning.querySelector('svg')).toHaveAttribute('aria-hidden', 'true');

    expect(within(item('It is unlocked.')).queryByText(OFF_PLATFORM_WARNING)).toBeNull();
    expect(within(item('Is it unlocked?')).queryByText(OFF_PLATFORM_WARNING)).toBeNull();
    expect(screen.getAllByText(OFF_PLATFORM_WARNING)).toHaveLength(1);
  });

  it('is reported like any other, the warning staying with it', () => {
    renderConversation(
      conversation([message(4, { body: 'Zelle me first', offPlatform: true, reported: true })]),
    );
    const warned = item('Zelle me first');
    expect(within(warned).getByText(OFF_PLATFORM_WARNING)).toBeInTheDocument();
    expect(within(warned).getByText('Reported')).toBeInTheDocument();
  });
});
