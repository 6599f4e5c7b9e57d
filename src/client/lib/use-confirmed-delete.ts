import { ApiError } from '@client/lib/api-client';
import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import toast from 'react-hot-toast';

/** Delete-after-confirm for a table row: which row is pending, and the mutation that deletes it. */
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
    pendingId,
    ask: setPendingId,
    cancel: () => setPendingId(null),
    confirm: () => pendingId && mutation.mutate(pendingId),
    busy: mutation.isPending,
  };
}
