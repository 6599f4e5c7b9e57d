import { DashboardPage } from '@client/components/layout/dashboard-page';
import { useAuth } from '@client/lib/auth/use-auth';
import { clientConfigQueryOptions } from '@client/lib/client-config';
import { ensureCurrent } from '@client/lib/ensure-current';
import { toast } from '@client/lib/toast';
import { besideItsField } from '@shared/listing-input';
import { TEXT } from '@shared/texts';
import type { QueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useAddProduct } from '../api/add-product';
import { useUploadImage } from '../api/upload-image';
import { FeeNote } from '../components/fee-note';
import { ListingPriceGuide } from '../components/listing-price-guide';
import { PhotoPicker, photosProblem } from '../components/photo-picker';
import {
  fieldId,
  listingFields,
  ProductFields,
  type ProductFormValues,
  tellSaveError,
  useProductForm,
} from '../components/product-form';
import { WaitingBuyers } from '../components/waiting-buyers';
import { type PhotoItem, usePhotoUploads } from '../photo-uploads';

const EMPTY: ProductFormValues = {
  categoryId: '',
  modelName: '',
  ram: '',
  storage: '',
  color: '',
  battery: '',
  batteryHealth: '',
  resellPrice: '',
  originalPrice: '',
  timeUsed: '',
  condition: '',
  name: '',
  number: '',
  location: '',
  imei: '',
  photos: { items: [], refused: false },
  description: '',
};

/** The fee rule, for what the seller receives of the price they type (issue 30). */
export const addProductLoader = (queryClient: QueryClient) => async () => {
  await ensureCurrent(queryClient, clientConfigQueryOptions());
  return null;
};

/**
 * Add A Product (spec section 5): every field required (battery health is optional, issue 19);
 * idle → uploading → idle, then My Products. Up to six photos upload as they are picked, each
 * with its progress; submitting checks every field first (as the server reads them: `1,200`,
 * `4,500 mAh`, `18 months`), so nothing is sent while one cannot be read, then waits for the
 * last photo. The first photo is the cover, sent as the spec's `image`.
 */
export function AddProductRoute() {
  const { user } = useAuth();
  const navigate = useNavigate();
  const add = useAddProduct();
  const { uploads, items } = usePhotoUploads(useUploadImage());
  const [refused, setRefused] = useState(false);
  const form = useProductForm({ ...EMPTY, name: user?.displayName ?? '' });
  const {
    register,
    handleSubmit,
    setValue,
    setError,
    getFieldState,
    trigger,
    watch,
    formState: { errors, isSubmitting, isSubmitted },
  } = form;

  useEffect(() => {
    register('photos', {
      validate: (v) => photosProblem(v.items as readonly PhotoItem[], v.refused) ?? true,
    });
  }, [register]);
  // The photos live outside the form (their uploads outlive renders); the form checks a copy.
  // A refused pick is told at once, as nothing of it is uploaded, and a good one clears it.
  useEffect(() => {
    const shown = getFieldState('photos').error !== undefined;
    setValue('photos', { items, refused }, { shouldValidate: isSubmitted || refused || shown });
  }, [items, refused, isSubmitted, setValue, getFieldState]);

  const onSubmit = async (v: ProductFormValues) => {
    try {
      const photos = await uploads.settled();
      const image = photos?.[0];
      // A photo failed meanwhile: its field says so, and it can be tried again or removed.
      if (!photos || !image) return void (await trigger('photos'));
      await add({ ...listingFields(v), image, photos, imei: v.imei });
      toast.success(TEXT.toast.productUploaded);
      navigate('/dashboard/myproducts');
    } catch (error) {
      // What the seller typed stays; each message goes beside its field.
      tellSaveError(error, setError, () => true, 'The product could not be saved.');
    }
  };

  return (
    <DashboardPage title={TEXT.dashboard.addProduct}>
      <form
        onSubmit={handleSubmit(onSubmit)}
        noValidate
        className="grid grid-cols-1 gap-x-6 md:grid-cols-2"
      >
        <ProductFields
          form={form}
          imei={{ ask: true }}
          submitLabel={TEXT.dashboard.addProduct}
          busy={isSubmitting}
          priceGuide={<ListingPriceGuide form={form} />}
          priceNote={
            <>
              <FeeNote form={form} />
              <WaitingBuyers form={form} />
            </>
          }
          photos={
            <PhotoPicker
              id={fieldId('photos')}
              uploads={uploads}
              items={items}
              error={errors.photos?.message && besideItsField(errors.photos.message)}
              onPicked={setRefused}
              subject={watch('modelName') || undefined}
              disabled={isSubmitting}
            />
          }
        />
      </form>
    </DashboardPage>
  );
}
