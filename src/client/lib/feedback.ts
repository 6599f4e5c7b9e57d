/** How the outcome of an action is told: in a toast. */
import { toast } from '@client/lib/toast';
import { ApiError } from './transport';

/**
 * The one way a failed action is told: the server's message (it says what to change), or
 * `fallback` when the failure has none to show.
 */
export function toastError(error: unknown, fallback = 'Something went wrong.'): void {
  toast.error(error instanceof ApiError ? error.message : fallback);
}

/** A delete's feedback for its mutation hook: `deletedText` when something went, else the error. */
export const deleteFeedback = (deletedText: string) => ({
  onSuccess: ({ deletedCount }: { deletedCount: number }) => {
    if (deletedCount > 0) toast.success(deletedText);
  },
  onError: (error: unknown) => toastError(error),
});
