/**
 * A modal on the native <dialog>, opened with show() and made modal here (decision 062):
 * showModal() makes the rest of the page inert, and Chromium restyles the whole document for
 * that, 150-400 ms on a brand page on a slow phone, in the tap's own frame. Here the dialog
 * covers the screen itself (a click beside its box lands on it), the rest of the page is hidden
 * from assistive technology (`aria-modal`, and `aria-hidden` outside it), focus moves in, Tab
 * wraps inside, focus that leaves is brought back, Escape closes it, and focus returns to where
 * it was.
 */
import { BESIDE_MODALS } from '@client/lib/beside-modals';
import { hideOthers } from 'aria-hidden';
import {
  type ReactNode,
  type RefObject,
  useDeferredValue,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';

type ModalProps = {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  actions?: ReactNode;
};

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** What Tab can reach inside `dialog`, in order (hidden ones left out). */
function focusableIn(dialog: HTMLElement): HTMLElement[] {
  return [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (el) => el.tabIndex >= 0 && (typeof el.checkVisibility !== 'function' || el.checkVisibility()),
  );
}

/** Where focus starts in `dialog`: `[autofocus]`, its first field or button, or the dialog itself. */
const focusStart = (dialog: HTMLElement): HTMLElement =>
  dialog.querySelector<HTMLElement>('[autofocus]') ?? focusableIn(dialog)[0] ?? dialog;

/** How many dialogs are open: the page behind does not scroll while one is (styles.css). */
let openDialogs = 0;
const LOCK = 'data-dialog-open';

/** Opens `dialog` as a modal without the browser's inert page; answers how to undo it. */
function openModal(dialog: HTMLDialogElement): () => void {
  const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  dialog.setAttribute('aria-modal', 'true');
  dialog.show();
  if (openDialogs++ === 0) document.documentElement.setAttribute(LOCK, '');
  const showAgain = hideOthers([dialog, ...document.querySelectorAll(`.${BESIDE_MODALS}`)]);
  // show() focuses the first thing that can take focus, the backdrop's button too: the first
  // field or button instead, or the dialog itself while its body is being made.
  focusStart(dialog).focus();
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.defaultPrevented) return;
    if (event.key === 'Escape') {
      event.preventDefault();
      dialog.close();
      return;
    }
    if (event.key !== 'Tab') return;
    const inside = focusableIn(dialog);
    const first = inside[0];
    const last = inside[inside.length - 1];
    const at = document.activeElement;
    if (!first || !last) {
      event.preventDefault();
      return;
    }
    if (event.shiftKey && (at === first || !dialog.contains(at))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (at === last || !dialog.contains(at))) {
      event.preventDefault();
      first.focus();
    }
  };
  // Focus that goes behind the dialog (a screen reader's cursor, a script) comes back.
  const onFocusIn = (event: FocusEvent) => {
    if (event.target instanceof Node && !dialog.contains(event.target)) {
      focusStart(dialog).focus();
    }
  };
  document.addEventListener('keydown', onKeyDown);
  document.addEventListener('focusin', onFocusIn);
  return () => {
    document.removeEventListener('keydown', onKeyDown);
    document.removeEventListener('focusin', onFocusIn);
    showAgain();
    if (--openDialogs === 0) document.documentElement.removeAttribute(LOCK);
    dialog.removeAttribute('aria-modal');
    if (dialog.open) dialog.close();
    const at = document.activeElement;
    if ((!at || at === document.body || dialog.contains(at)) && before?.isConnected) {
      before.focus();
    }
  };
}

/**
 * A <dialog> opened by `useModalDialog` that is not a daisyUI `.modal`: the whole screen, dimmed,
 * with its panel inside (a click beside the panel lands on the dialog itself).
 */
export const MODAL_SHEET =
  'fixed inset-0 z-[999] m-0 h-dvh max-h-none w-full max-w-none border-0 bg-black/50 p-0';

/**
 * `open`, except that it turns true in a render of its own just after the one that opened it,
 * and false at once: the tap's frame paints first, and what opens (its render, `show()` and the
 * restyle that forces, moving focus) comes in the tasks after it (decision 063).
 */
export function useOpenSoon(open: boolean): boolean {
  const soon = useDeferredValue(open, false);
  return open && soon;
}

/** A native <dialog>'s ref, shown as a modal soon after `open` turns true, closed at once. */
export function useModalDialog(open: boolean) {
  const ref = useRef<HTMLDialogElement>(null);
  const shown = useOpenSoon(open);
  // Undone when `open` turns false, and when the dialog is taken away while open (its page
  // stops rendering it). A passive effect: focus given back in a layout effect's cleanup would
  // be put back by React where it was before the commit.
  useEffect(() => {
    const dialog = ref.current;
    if (!shown || !dialog || dialog.open) return;
    return openModal(dialog);
  }, [shown]);
  return ref;
}

/**
 * Whether a dialog's body is made yet: not in the tap that opens it, but in a render of its own
 * just after, so that the tap's frame paints the dialog's box at once (decision 062). Once made,
 * it stays (what was typed survives a close). In tests, React makes it before `render` returns.
 */
export function useBodyMade(open: boolean): boolean {
  const deferred = useDeferredValue(open, false);
  const [made, setMade] = useState(false);
  if (deferred && !made) setMade(true);
  return made;
}

export function Modal({ open, onClose, title, children, actions }: ModalProps) {
  const ref = useModalDialog(open);
  const titleId = useId();
  const made = useBodyMade(open);

  return (
    <dialog
      ref={ref}
      className="modal modal-bottom sm:modal-middle"
      aria-labelledby={titleId}
      tabIndex={-1}
      // React passes a dialog's close on to the dialogs around it: only its own closes it.
      onClose={(event) => event.target === event.currentTarget && onClose()}
    >
      <div className="modal-box max-h-[85vh]">
        <h2 id={titleId} className="text-lg font-bold">
          {title}
        </h2>
        {made ? (
          <FocusedWhenMade dialog={ref}>
            <div className="py-4">{children}</div>
            {actions && <div className="modal-action">{actions}</div>}
          </FocusedWhenMade>
        ) : (
          <div className="min-h-24 py-4" />
        )}
      </div>
      <form method="dialog" className="modal-backdrop">
        <button type="submit" tabIndex={-1} aria-hidden="true">
          close
        </button>
      </form>
    </dialog>
  );
}

/**
 * A dialog's body made after the dialog opened: focus, which went to the dialog itself for want
 * of anything inside, moves to the body's first field or button, as it would have at once.
 */
export function FocusedWhenMade({
  dialog,
  children,
}: {
  dialog: RefObject<HTMLDialogElement | null>;
  children: ReactNode;
}) {
  useEffect(() => {
    const at = dialog.current;
    if (at?.open && !focusableIn(at).some((el) => el === document.activeElement)) {
      focusStart(at).focus();
    }
  }, [dialog]);
  return children;
}
