/**
 * A modal on the native <dialog>: showModal() makes the rest of the page inert, so focus stays
 * inside; Escape and the close button close it; focus returns to where it was.
 */
import { type ReactNode, useEffect, useId, useLayoutEffect, useRef } from 'react';

type ModalProps = {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  actions?: ReactNode;
};

/** A native <dialog>'s ref, shown modal while `open` and closed otherwise. */
export function useModalDialog(open: boolean) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  // A dialog taken away while open (its page stops rendering it) is closed first, while it is
  // still in the document: closing is what gives focus back to where it was.
  useLayoutEffect(() => {
    const dialog = ref.current;
    return () => {
      if (dialog?.open) dialog.close();
    };
  }, []);
  return ref;
}

export function Modal({ open, onClose, title, children, actions }: ModalProps) {
  const ref = useModalDialog(open);
  const titleId = useId();

  return (
    <dialog
      ref={ref}
      className="modal modal-bottom sm:modal-middle"
      aria-labelledby={titleId}
      onClose={onClose}
    >
      <div className="modal-box max-h-[85vh]">
        <h2 id={titleId} className="text-lg font-bold">
          {title}
        </h2>
        <div className="py-4">{children}</div>
        {actions && <div className="modal-action">{actions}</div>}
      </div>
      <form method="dialog" className="modal-backdrop">
        <button type="submit" tabIndex={-1} aria-hidden="true">
          close
        </button>
      </form>
    </dialog>
  );
}
