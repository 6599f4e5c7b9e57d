import { ApiError } from '@client/lib/api-client';
import { TEXT } from '@shared/texts';
import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import toast from 'react-hot-toast';

/** Delete-after-confirm for a table row: ask about a row, then the dialog confirms and deletes it. */
export function useConfirmedDelete(
  remove: (id: string) => Promise<{ deletedCount: number }>,
  queryKey: QueryKey,
  successText: string,
) {
  const queryClient = useQueryClient();
  const [pendingId, setPendingId] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: remove,
    onSuccess: async ({ deletedCount }) => {
      if (deletedCount > 0) toast.success(successText);
      await queryClient.invalidateQueries({ queryKey });
    },
    onError: (error) =>
      toast.error(error instanceof ApiError ? error.message : 'Something went wrong.'),
    onSettled: () => setPendingId(null),
  });
  return {
    ask: setPendingId,
    /** The props of the spec's delete confirmation for the row being asked about. */
    dialog: {
      open: pendingId !== null,
      message: TEXT.confirm.delete,
      busy: mutation.isPending,
      onCancel: () => setPendingId(null),
      onConfirm: () => pendingId && mutation.mutate(pendingId),
    },
  };
}
