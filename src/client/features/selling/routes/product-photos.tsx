import { DashboardPage } from '@client/components/layout/dashboard-page';
import { session } from '@client/lib/auth/session';
import { useAuth } from '@client/lib/auth/use-auth';
import { ensureCurrent } from '@client/lib/ensure-current';
import { toastError } from '@client/lib/feedback';
import { toast } from '@client/lib/toast';
import type { Product } from '@shared/entities';
import { can } from '@shared/order-process';
import { type QueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { data, Link, type LoaderFunctionArgs, useNavigate, useParams } from 'react-router';
import { myProductQueryOptions, useSetProductPhotos } from '../api/product-photos';
import { useUploadImage } from '../api/upload-image';
import { PhotoPicker, photosProblem } from '../components/photo-picker';
import { usePhotoUploads } from '../photo-uploads';
import { SELLING_TEXT } from '../texts';

const MY_PRODUCTS = '/dashboard/myproducts';

/** The phone loads before the page shows; one that is not the seller's is the 404 page. */
export const productPhotosLoader =
  (queryClient: QueryClient) =>
  async ({ params }: LoaderFunctionArgs) => {
    const user = await session.currentUser();
    // Signed out: the dashboard's own loader sends the visitor to sign in.
    if (!user) return null;
    const product = await ensureCurrent(queryClient, {
      ...myProductQueryOptions(user.email, params.id ?? ''),
      revalidateIfStale: true,
    });
    if (!product) throw data(null, { status: 404 });
    return null;
  };

/** A listed phone's photos: add, reorder and remove them, then save them all at once. */
export function ProductPhotosRoute() {
  const { user } = useAuth();
  const { id = '' } = useParams();
  const { data: product } = useSuspenseQuery(myProductQueryOptions(user?.email ?? '', id));
  if (!product) return null;
  return (
    <DashboardPage title={SELLING_TEXT.photosTitle(product.modelName)}>
      {can('product', product.status, 'setPhotos') ? (
        <PhotosForm product={product} />
      ) : (
        <div className="space-y-4">
          <p>{SELLING_TEXT.soldKeepsPhotos}</p>
          <Link to={MY_PRODUCTS} className="btn">
            {SELLING_TEXT.back}
          </Link>
        </div>
      )}
    </DashboardPage>
  );
}

function PhotosForm({ product }: { product: Product }) {
  const navigate = useNavigate();
  const { uploads, items } = usePhotoUploads(useUploadImage(), product.photos);
  const [refused, setRefused] = useState(false);
  /** Whether the seller tried to save: from then on the field says what stops it. */
  const [attempted, setAttempted] = useState(false);
  const [saving, setSaving] = useState(false);
  const save = useSetProductPhotos({
    onSuccess: () => {
      toast.success(SELLING_TEXT.saved);
      navigate(MY_PRODUCTS);
    },
    onError: (error) => toastError(error, 'The photos could not be saved.'),
  });
  const problem = attempted || refused ? photosProblem(items, refused) : undefined;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setAttempted(true);
    if (photosProblem(items, refused)) return;
    setSaving(true);
    try {
      const photos = await uploads.settled();
      if (photos) await save.mutateAsync({ id: product._id, photos }).catch(() => {});
    } finally {
      setSaving(false);
    }
  };

  const busy = saving || save.isPending;
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <PhotoPicker
        id="product-photos"
        uploads={uploads}
        items={items}
        error={problem}
        onPicked={setRefused}
        subject={product.modelName}
        disabled={busy}
      />
      <div className="flex flex-wrap gap-2">
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
          {SELLING_TEXT.save}
        </button>
        <Link to={MY_PRODUCTS} className="btn">
          {SELLING_TEXT.back}
        </Link>
      </div>
    </form>
  );
}
