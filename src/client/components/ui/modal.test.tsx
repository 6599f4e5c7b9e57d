import { BESIDE_MODALS } from '@client/lib/beside-modals';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Modal, useOpenSoon } from './modal';

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

/** Two dialogs, the second opened from inside the first. */
function Two() {
  const [open, setOpen] = useState({ a: false, b: false });
  return (
    <>
      <button type="button" onClick={() => setOpen({ a: true, b: false })}>
        Open
      </button>
      <Modal open={open.a} onClose={() => setOpen((o) => ({ ...o, a: false }))} title="First">
        <button type="button" onClick={() => setOpen((o) => ({ ...o, b: true }))}>
          More
        </button>
        <Modal open={open.b} onClose={() => setOpen((o) => ({ ...o, b: false }))} title="Second">
          <button type="button" onClick={() => setOpen((o) => ({ ...o, b: false }))}>
            Back
          </button>
        </Modal>
      </Modal>
    </>
  );
}

/** What `useOpenSoon` answered in each render of `Probe`: `open/soon`. */
const seen: string[] = [];
function Probe() {
  const [open, setOpen] = useState(false);
  const soon = useOpenSoon(open);
  seen.push(`${open}/${soon}`);
  return (
    <button type="button" onClick={() => setOpen((o) => !o)}>
      Toggle
    </button>
  );
}

/** Opens the page's dialog as a person would; answers the dialog and the user. */
async function opened(ui = <Page />) {
  const user = userEvent.setup();
  const view = render(ui);
  await user.click(screen.getByRole('button', { name: 'Open' }));
  return { user, view, dialog: screen.getByRole('dialog', { name: 'A question' }) };
}

describe('Modal (decisions 062 and 063: shown with show(), made modal by hand)', () => {
  it('moves focus in and hides the page behind from assistive technology, the toasts aside', async () => {
    const { dialog } = await opened();
    expect(dialog).toHaveAttribute('open');
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveFocus();
    expect(screen.queryByRole('button', { name: 'Open' })).toBeNull();
    expect(screen.queryByText('Behind the dialog')?.closest('[aria-hidden="true"]')).not.toBeNull();
    expect(screen.getByRole('link', { name: 'Pay now' })).toBeInTheDocument();
    // The page behind does not scroll (decision 063).
    expect(document.documentElement).toHaveAttribute('data-dialog-open');
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
    expect(document.documentElement).not.toHaveAttribute('data-dialog-open');
  });

  it('gives focus back and shows the page again when taken away while open', async () => {
    const { view } = await opened();
    view.rerender(<Page shown={false} />);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('button', { name: 'Open' })).toHaveFocus();
    expect(document.documentElement).not.toHaveAttribute('data-dialog-open');
  });

  it('keeps the page locked until the last of two open dialogs closes', async () => {
    const user = userEvent.setup();
    render(<Two />);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    await user.click(screen.getByRole('button', { name: 'More' }));
    expect(screen.getByRole('dialog', { name: 'Second' })).toHaveAttribute('open');
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(document.documentElement).toHaveAttribute('data-dialog-open');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.documentElement).not.toHaveAttribute('data-dialog-open');
  });
});

describe('useOpenSoon (decision 063)', () => {
  it('turns true in a render after the one that opened it, and false at once', async () => {
    const user = userEvent.setup();
    render(<Probe />);
    seen.length = 0;
    await user.click(screen.getByRole('button', { name: 'Toggle' }));
    expect(seen).toEqual(['true/false', 'true/true']);
    seen.length = 0;
    await user.click(screen.getByRole('button', { name: 'Toggle' }));
    expect(seen[0]).toBe('false/false');
  });
});
