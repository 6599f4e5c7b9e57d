import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CardError, type ConfirmCard } from './card-input';
import { StripeCardInput } from './stripe-card-input';

/** Stripe.js as its reference describes it: elements → card element with events; confirmCardPayment. */
function fakeStripe() {
  const handlers: Record<string, (event: unknown) => void> = {};
  const card = {
    on: vi.fn((name: string, handler: (event: unknown) => void) => {
      handlers[name] = handler;
    }),
    mount: vi.fn(),
    update: vi.fn(),
    destroy: vi.fn(),
  };
  const stripe = {
    elements: vi.fn(() => ({ create: vi.fn(() => card) })),
    confirmCardPayment: vi.fn(),
  };
  const emit = (name: string, event: unknown = {}) => act(() => handlers[name]?.(event));
  return { stripe, card, emit };
}

const loadStripe = vi.fn();
vi.mock('@stripe/stripe-js/pure', () => ({ loadStripe: (key: string) => loadStripe(key) }));
afterEach(() => loadStripe.mockReset());

async function mounted(disabled = false) {
  const fake = fakeStripe();
  loadStripe.mockResolvedValue(fake.stripe);
  const onReady = vi.fn<(confirm: ConfirmCard | null) => void>();
  const view = render(
    <StripeCardInput publishableKey="pk_test_123" disabled={disabled} onReady={onReady} />,
  );
  await vi.waitFor(() => expect(fake.card.mount).toHaveBeenCalled());
  return { ...fake, onReady, view };
}

describe("Stripe Elements' card field", () => {
  it('loads Stripe.js with the publishable key and mounts the card element in its box', async () => {
    const { card } = await mounted();
    expect(loadStripe).toHaveBeenCalledWith('pk_test_123');
    expect(card.mount).toHaveBeenCalledWith(screen.getByTestId('stripe-card'));
  });

  it('is ready only once the element says so', async () => {
    const { onReady, emit } = await mounted();
    expect(onReady).not.toHaveBeenCalledWith(expect.any(Function));
    emit('ready');
    expect(onReady).toHaveBeenLastCalledWith(expect.any(Function));
  });

  it("shows the element's own messages in red as the buyer types", async () => {
    const { emit } = await mounted();
    emit('change', { error: { message: 'Your card number is incomplete.' } });
    expect(screen.getByRole('alert')).toHaveTextContent('Your card number is incomplete.');
    expect(screen.getByRole('alert')).toHaveClass('text-error');
    emit('change', { complete: true });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("confirms with the card element and the buyer's name and e-mail", async () => {
    const { stripe, card, onReady, emit } = await mounted();
    emit('ready');
    const confirm = onReady.mock.lastCall?.[0] as ConfirmCard;
    stripe.confirmCardPayment.mockResolvedValue({
      paymentIntent: { id: 'pi_1', status: 'succeeded' },
    });
    await expect(
      confirm('pi_1_secret_2', { name: 'Ann', email: 'ann@example.com' }),
    ).resolves.toEqual({
      id: 'pi_1',
    });
    expect(stripe.confirmCardPayment).toHaveBeenCalledWith('pi_1_secret_2', {
      payment_method: { card, billing_details: { name: 'Ann', email: 'ann@example.com' } },
    });
  });

  it("turns Stripe's error into a card error carrying Stripe's message", async () => {
    const { stripe, onReady, emit } = await mounted();
    emit('ready');
    const confirm = onReady.mock.lastCall?.[0] as ConfirmCard;
    stripe.confirmCardPayment.mockResolvedValue({
      error: { type: 'card_error', message: 'Your card was declined.' },
    });
    const failure = confirm('s', { name: 'A', email: 'a@example.com' });
    await expect(failure).rejects.toBeInstanceOf(CardError);
    await expect(failure).rejects.toThrow('Your card was declined.');
  });

  it('is disabled while paying, and taken down with the page', async () => {
    const { card, onReady, view } = await mounted();
    view.rerender(<StripeCardInput publishableKey="pk_test_123" disabled onReady={onReady} />);
    expect(card.update).toHaveBeenLastCalledWith({ disabled: true });
    view.unmount();
    expect(card.destroy).toHaveBeenCalled();
    expect(onReady).toHaveBeenLastCalledWith(null);
  });

  it('says so when Stripe.js cannot be loaded', async () => {
    loadStripe.mockRejectedValue(new Error('Failed to load Stripe.js'));
    render(<StripeCardInput publishableKey="pk_test_123" disabled={false} onReady={vi.fn()} />);
    expect(await screen.findByRole('alert')).toHaveTextContent(/could not be reached/);
  });
});
