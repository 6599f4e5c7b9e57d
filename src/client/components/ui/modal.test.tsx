import { BESIDE_MODALS } from '@client/lib/beside-modals';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Modal } from './modal';

function Page({ shown = true }: { shown?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      <p>Behind the dialog</p>
      <div className={BESIDE_MODALS}>
        <a href="/pay">Pay now</a>
      </div>
      {shown && (
        <Modal
          open={open}
          onClose={() => setOpen(false)}
          title="A question"
          actions={
            <button type="button" onClick={() => setOpen(false)}>
              Done
            </button>
          }
        >
          <input aria-label="Name" />
        </Modal>
      )}
    </>
  );
}

/** Opens the page's dialog as a person would; answers the dialog and the user. */
async function opened(ui = <Page />) {
  const user = userEvent.setup();
  const view = render(ui);
  await user.click(screen.getByRole('button', { name: 'Open' }));
  return { user, view, dialog: screen.getByRole('dialog', { name: 'A question' }) };
}

describe('Modal (decision 062: shown with show(), made modal by hand)', () => {
  it('moves focus in and hides the page behind from assistive technology, the toasts aside', async () => {
    const { dialog } = await opened();
    expect(dialog).toHaveAttribute('open');
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveFocus();
    expect(screen.queryByRole('button', { name: 'Open' })).toBeNull();
    expect(screen.queryByText('Behind the dialog')?.closest('[aria-hidden="true"]')).not.toBeNull();
    expect(screen.getByRole('link', { name: 'Pay now' })).toBeInTheDocument();
  });

  it('wraps Tab and Shift+Tab inside it, and brings back focus that left', async () => {
    const { user, dialog } = await opened();
    const name = screen.getByRole('textbox', { name: 'Name' });
    const done = screen.getByRole('button', { name: 'Done' });
    await user.tab();
    expect(done).toHaveFocus();
    await user.tab();
    expect(name).toHaveFocus();
    await user.tab({ shift: true });
    expect(done).toHaveFocus();
    screen.getByText('Open').focus();
    expect(dialog.contains(document.activeElement)).toBe(true);
  });

  it('closes on Escape, gives focus back, and shows the page again', async () => {
    const { user, dialog } = await opened();
    await user.keyboard('{Escape}');
    expect(dialog).not.toHaveAttribute('open');
    expect(dialog).not.toHaveAttribute('aria-modal');
    const open = screen.getByRole('button', { name: 'Open' });
    expect(open).toHaveFocus();
    expect(screen.getByText('Behind the dialog').closest('[aria-hidden="true"]')).toBeNull();
  });

  it('gives focus back and shows the page again when taken away while open', async () => {
    const { view } = await opened();
    view.rerender(<Page shown={false} />);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('button', { name: 'Open' })).toHaveFocus();
  });
});
