import { useState } from 'react';

/** A mutation as the dialog drives it (TanStack Query's `useMutation` result fits). */
type Action<T> = {
  mutate: (subject: T, options: { onSettled: () => void }) => void;
  isPending: boolean;
};

/**
 * Act-after-confirm for a table row: `ask` about a row, the spec's dialog asks `message`, OK runs
 * the action, and the dialog stays open, busy, until the action has settled.
 */
export function useConfirmedAction<T>(
  action: Action<T>,
  message: string | ((subject: T) => string),
) {
  const [asked, setAsked] = useState<{ subject: T } | null>(null);
  const close = () => setAsked(null);
  const question = (subject: T) => (typeof message === 'string' ? message : message(subject));
  return {
    ask: (subject: T) => setAsked({ subject }),
    /** The props of the ConfirmDialog for the row being asked about. */
    dialog: {
      open: asked !== null,
      message: asked ? question(asked.subject) : '',
      busy: action.isPending,
      onCancel: close,
      onConfirm: () => asked && action.mutate(asked.subject, { onSettled: close }),
    },
  };
}
