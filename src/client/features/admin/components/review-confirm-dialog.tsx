import { Modal } from '@client/components/ui/modal';
import { useId, useState } from 'react';
import { REVIEW_TEXT } from '../texts';

/** What a destructive decision asks before it is taken. */
export type ReviewQuestion = {
  question: string;
  /** What the decision does, in plain words. */
  means: string;
  /** The confirming button's name: the action itself, not a bare "OK". */
  confirm: string;
};

type Props = {
  asked: ReviewQuestion | null;
  busy: boolean;
  onCancel: () => void;
  onConfirm: (note: string) => void;
};

/**
 * Withdraw or ban, asked first: what it does, a note the record keeps, and the action named on
 * its button. Escape and Cancel leave everything as it was.
 */
export function ReviewConfirmDialog({ asked, ...rest }: Props) {
  if (!asked) return null;
  return <Asked asked={asked} {...rest} />;
}

function Asked({ asked, busy, onCancel, onConfirm }: Props & { asked: ReviewQuestion }) {
  const [note, setNote] = useState('');
  const id = useId();
  return (
    <Modal
      open
      onClose={onCancel}
      title={asked.question}
      actions={
        <>
          <button type="button" className="btn" onClick={onCancel}>
            {REVIEW_TEXT.cancel}
          </button>
          <button
            type="button"
            className="btn btn-error"
            onClick={() => onConfirm(note.trim())}
            disabled={busy}
          >
            {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
            {asked.confirm}
          </button>
        </>
      }
    >
      <p className="mb-3">{asked.means}</p>
      <label className="flex flex-col gap-1" htmlFor={id}>
        <span>{REVIEW_TEXT.note}</span>
        <textarea
          id={id}
          className="textarea w-full"
          rows={2}
          maxLength={500}
          value={note}
          onChange={(event) => setNote(event.target.value)}
        />
      </label>
    </Modal>
  );
}
