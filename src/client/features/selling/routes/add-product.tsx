import { DashboardPage } from '@client/components/layout/dashboard-page';
import { describedBy, Field, TextField } from '@client/components/ui/field';
import { useAuth } from '@client/lib/auth/use-auth';
import { clientConfigQueryOptions } from '@client/lib/client-config';
import { toastError } from '@client/lib/feedback';
import { CATEGORIES, CONDITION_OPTIONS, RAM_OPTIONS, STORAGE_OPTIONS } from '@shared/constants';
import { TEXT } from '@shared/texts';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useForm } from 'react-hook-form';
import toast from 'react-hot-toast';
import { useNavigate } from 'react-router';
import { useAddProduct } from '../api/add-product';
import { uploadImage } from '../api/upload-image';
import { hasAcceptedExtension } from '../image-extension';

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
  img: FileList;
  description: string;
};

const required = { required: TEXT.validation.requiredField };

/** Add A Product (spec section 5): every field required; idle → uploading → idle, then My Products. */
export function AddProductRoute() {
  const { user } = useAuth();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const add = useAddProduct();
  const [progress, setProgress] = useState<number | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<Values>({
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    defaultValues: { name: user?.displayName ?? '' },
  });

  const idOf = (name: keyof Values) => `product-${name}`;
  const messageOf = (name: keyof Values) => errors[name]?.message;
  const input = (name: keyof Values, rules: object = required) => ({
    id: idOf(name),
    ...describedBy(idOf(name), messageOf(name)),
    ...register(name, rules),
  });

  const onSubmit = async (v: Values) => {
    const file = v.img[0];
    if (!file) return;
    try {
      const config = await queryClient.fetchQuery(clientConfigQueryOptions());
      setProgress(0);
      const image = await uploadImage(file, config.images, setProgress);
      await add({
        categoryId: v.categoryId as (typeof CATEGORIES)[number]['categoryId'],
        modelName: v.modelName,
        image,
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
    } finally {
      setProgress(null);
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
        {field(
          'img',
          'Photo',
          <input
            type="file"
            accept=".jpg,.jpeg,.png,.webp,image/jpeg,image/png,image/webp"
            className="file-input w-full"
            {...input('img', {
              required: TEXT.validation.requiredField,
              validate: (files: FileList) =>
                (files[0] !== undefined && hasAcceptedExtension(files[0].name)) ||
                TEXT.validation.imageFormat,
            })}
          />,
        )}
        <div className="md:col-span-2">
          {field(
            'description',
            'Description',
            <textarea className="textarea h-28 w-full" {...input('description')} />,
          )}
        </div>
        {progress !== null && (
          <div className="md:col-span-2">
            <label htmlFor="upload-progress" className="text-sm">
              Uploading photo: {progress}%
            </label>
            <progress
              id="upload-progress"
              className="progress progress-primary w-full"
              value={progress}
              max={100}
            />
          </div>
        )}
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
