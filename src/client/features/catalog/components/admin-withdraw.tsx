import { ConfirmDialog } from '@client/components/ui/confirm-dialog';
import { toastError } from '@client/lib/feedback';
import { toast } from '@client/lib/toast';
import { useState } from 'react';
import { useWithdrawListing } from '../api/withdraw-listing';
import { CATALOG_TEXT } from '../texts';

/** The admin's way to take a listing off the market from its page; the seller may relist it. */
export function AdminWithdraw({ productId, modelName }: { productId: string; modelName: string }) {
  const [asking, setAsking] = useState(false);
  const withdraw = useWithdrawListing({
    onSuccess: () => {
      setAsking(false);
      toast.success(CATALOG_TEXT.adminWithdrawn);
    },
    onError: (error) => {
      setAsking(false);
      toastError(error, CATALOG_TEXT.adminWithdrawFailed);
    },
  });
  return (
    <>
      <button type="button" className="btn btn-outline btn-error" onClick={() => setAsking(true)}>
        {CATALOG_TEXT.adminWithdraw}
        <span className="sr-only"> {modelName}</span>
      </button>
      <ConfirmDialog
        open={asking}
        message={CATALOG_TEXT.adminWithdrawQuestion}
        busy={withdraw.isPending}
        onConfirm={() => withdraw.mutate(productId)}
        onCancel={() => setAsking(false)}
      />
    </>
  );
}
