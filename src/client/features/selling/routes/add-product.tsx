import { DashboardPage } from '@client/components/layout/dashboard-page';
import { describedBy, Field, TextField } from '@client/components/ui/field';
import { useAuth } from '@client/lib/auth/use-auth';
import { toastError } from '@client/lib/feedback';
import { CATEGORIES, CONDITION_OPTIONS, RAM_OPTIONS, STORAGE_OPTIONS } from '@shared/constants';
import { TEXT } from '@shared/texts';
import { type ReactNode, useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import toast from 'react-hot-toast';
import { useNavigate } from 'react-router';
import { useAddProduct } from '../api/add-product';
import { useUploadImage } from '../api/upload-image';
import { PhotoPicker, photosProblem } from '../components/photo-picker';
import { type PhotoItem, usePhotoUploads } from '../photo-uploads';

type Values = {
  categoryId: string;
  modelName: string;
  ram: string;
  storage: string;
  color: string;
  battery: string;
  resellPrice: string;
  originalPrice: string;
  timeUsed: string;
  condition: string;
  name: string;
  number: string;
  location: string;
  /** The spec's `img`: the photos picked, and whether the last pick broke the extension rule. */
  photos: { items: readonly PhotoItem[]; refused: boolean };
  description: string;
};

const required = { required: TEXT.validation.requiredField };

/**
 * Add A Product (spec section 5): every field required; idle → uploading → idle, then My
 * Products. Up to six photos upload as they are picked, each with its progress; submitting waits
 * for the last of them. The first photo is the cover, sent as the spec's `image`.
 */
export function AddProductRoute() {
  const { user } = useAuth();
  const navigate = useNavigate();
  const add = useAddProduct();
  const { uploads, items } = usePhotoUploads(useUploadImage());
  const [refused, setRefused] = useState(false);
  const {
    register,
    handleSubmit,
    setValue,
    getFieldState,
    trigger,
    watch,
    formState: { errors, isSubmitting, isSubmitted },
  } = useForm<Values>({
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    defaultValues: { name: user?.displayName ?? '', photos: { items: [], refused: false } },
  });

  useEffect(() => {
    register('photos', { validate: (v) => photosProblem(v.items, v.refused) ?? true });
  }, [register]);
  // The photos live outside the form (their uploads outlive renders); the form checks a copy.
  // A refused pick is told at once, as nothing of it is uploaded, and a good one clears it.
  useEffect(() => {
    const shown = getFieldState('photos').error !== undefined;
    setValue('photos', { items, refused }, { shouldValidate: isSubmitted || refused || shown });
  }, [items, refused, isSubmitted, setValue, getFieldState]);

  const idOf = (name: keyof Values) => `product-${name}`;
  const messageOf = (name: keyof Values) => errors[name]?.message;
  const input = (name: keyof Values, rules: object = required) => ({
    id: idOf(name),
    ...describedBy(idOf(name), messageOf(name)),
    ...register(name, rules),
  });

  const onSubmit = async (v: Values) => {
    try {
      const photos = await uploads.settled();
      const image = photos?.[0];
      // A photo failed meanwhile: its field says so, and it can be tried again or removed.
      if (!photos || !image) return void (await trigger('photos'));
      await add({
        categoryId: v.categoryId as (typeof CATEGORIES)[number]['categoryId'],
        modelName: v.modelName,
        image,
        photos,
        originalPrice: v.originalPrice,
        resellPrice: v.resellPrice,
        location: v.location,
        description: v.description,
        timeUsed: v.timeUsed,
        condition: v.condition as (typeof CONDITION_OPTIONS)[number],
        sellerNumber: v.number,
        specificatons: {
          ram: v.ram as (typeof RAM_OPTIONS)[number],
          storage: v.storage as (typeof STORAGE_OPTIONS)[number],
          color: v.color,
          battery: v.battery,
        },
      });
      toast.success(TEXT.toast.productUploaded);
      navigate('/dashboard/myproducts');
    } catch (error) {
      // What the seller typed stays; the server's message says what to change.
      toastError(error, 'The product could not be saved.');
    }
  };

  const textField = (name: keyof Values, label: string, extra: object = {}) => (
    <TextField
      id={idOf(name)}
      label={label}
      error={messageOf(name)}
      errorAt="label"
      {...extra}
      registration={register(name, required)}
    />
  );
  const field = (name: keyof Values, label: string, control: ReactNode) => (
    <Field id={idOf(name)} label={label} error={messageOf(name)} errorAt="label">
      {control}
    </Field>
  );
  const select = (
    name: keyof Values,
    label: string,
    options: readonly { value: string; label: string }[],
  ) =>
    field(
      name,
      label,
      <select className="select w-full" defaultValue="" {...input(name)}>
        <option value="" disabled>
          Choose…
        </option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>,
    );
  const same = (values: readonly string[]) => values.map((v) => ({ value: v, label: v }));

  return (
    <DashboardPage title={TEXT.dashboard.addProduct}>
      <form
        onSubmit={handleSubmit(onSubmit)}
        noValidate
        className="grid grid-cols-1 gap-x-6 md:grid-cols-2"
      >
        {select(
          'categoryId',
          'Category',
          CATEGORIES.map((c) => ({ value: c.categoryId, label: c.name })),
        )}
        {textField('modelName', 'Model name')}
        {select('ram', 'RAM', same(RAM_OPTIONS))}
        {select(
          'storage',
          'Storage',
          STORAGE_OPTIONS.map((s) => ({ value: s, label: s === '1 GTB' ? '1 TB' : s })),
        )}
        {textField('color', 'Color')}
        {textField('battery', 'Battery (mAh)', {
          placeholder: TEXT.placeholders.battery,
          inputMode: 'numeric',
        })}
        {textField('resellPrice', 'Resale price ($)', { inputMode: 'decimal' })}
        {textField('originalPrice', 'Original price ($)', { inputMode: 'decimal' })}
        {textField('timeUsed', 'Time used (months)', {
          placeholder: TEXT.placeholders.timeUsed,
          inputMode: 'numeric',
        })}
        {select('condition', 'Condition', same(CONDITION_OPTIONS))}
        {textField('name', 'Seller name', { readOnly: true })}
        {textField('number', 'Phone number', { type: 'tel', autoComplete: 'tel' })}
        {textField('location', 'Location')}
        <div className="md:col-span-2">
          <PhotoPicker
            id={idOf('photos')}
            uploads={uploads}
            items={items}
            error={messageOf('photos')}
            onPicked={setRefused}
            subject={watch('modelName') || undefined}
            disabled={isSubmitting}
          />
        </div>
        <div className="md:col-span-2">
          {field(
            'description',
            'Description',
            <textarea className="textarea h-28 w-full" {...input('description')} />,
          )}
        </div>
        <div className="mt-4 md:col-span-2">
          <button
            type="submit"
            className="btn btn-primary w-full md:w-auto"
            disabled={isSubmitting}
          >
            {isSubmitting && (
              <span className="loading loading-spinner loading-sm" aria-hidden="true" />
            )}
            {TEXT.dashboard.addProduct}
          </button>
        </div>
      </form>
    </DashboardPage>
  );
}
