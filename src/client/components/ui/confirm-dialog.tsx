import { TEXT } from '@shared/texts';
import { Modal } from './modal';

type ConfirmDialogProps = {
  open: boolean;
  message: string;
  onConfirm: () => void;
  onCancel: () => void;
  busy?: boolean;
};

/** A question with OK and Cancel; Escape cancels. */
export function ConfirmDialog({
  open,
  message,
  onConfirm,
  onCancel,
  busy = false,
}: ConfirmDialogProps) {
  if (!open) return null;
  return (
    <Modal
      open
      onClose={onCancel}
      title={message}
      actions={
        <>
          <button type="button" className="btn" onClick={onCancel}>
            {TEXT.confirm.cancel}
          </button>
          <button type="button" className="btn btn-primary" onClick={onConfirm} disabled={busy}>
            {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
            {TEXT.confirm.ok}
          </button>
        </>
      }
    >
      {null}
    </Modal>
  );
}
