/**
 * The listing form of Add A Product and of editing a listed phone (issue 19). Every field is read
 * as people type it, with the same readers the server uses (@shared/listing-input): `1,200`,
 * `4,500 mAh`, `18 months` pass; what cannot be read is told beside its field, in the words of its
 * label, before anything is sent. The server's refusals come back the same way (`fields`).
 */
import { describedBy, Field, TextField } from '@client/components/ui/field';
import { ApiError } from '@client/lib/api-client';
import { toastError } from '@client/lib/feedback';
import { toast } from '@client/lib/toast';
import { CATEGORIES, CONDITION_OPTIONS, RAM_OPTIONS, STORAGE_OPTIONS } from '@shared/constants';
import { imeiProblem } from '@shared/imei';
import {
  besideItsField,
  LISTING_LABELS,
  type Read,
  readBattery,
  readBatteryHealth,
  readDollars,
  readTimeUsed,
} from '@shared/listing-input';
import { TEXT } from '@shared/texts';
import type { ReactNode } from 'react';
import { type FieldPath, type UseFormReturn, useForm } from 'react-hook-form';
import { SELLING_TEXT } from '../texts';

export type ProductFormValues = {
  categoryId: string;
  modelName: string;
  ram: string;
  storage: string;
  color: string;
  battery: string;
  batteryHealth: string;
  resellPrice: string;
  originalPrice: string;
  timeUsed: string;
  condition: string;
  name: string;
  number: string;
  location: string;
  imei: string;
  /** The spec's `img`: the photos picked, and whether the last pick broke the extension rule. */
  photos: { items: readonly unknown[]; refused: boolean };
  description: string;
};

type Name = FieldPath<ProductFormValues>;

/** The form's field of each body path the server may name in `fields`. */
const FIELD_OF_PATH: Record<string, Name> = {
  categoryId: 'categoryId',
  modelName: 'modelName',
  'specificatons.ram': 'ram',
  'specificatons.storage': 'storage',
  'specificatons.color': 'color',
  'specificatons.battery': 'battery',
  batteryHealth: 'batteryHealth',
  resellPrice: 'resellPrice',
  originalPrice: 'originalPrice',
  timeUsed: 'timeUsed',
  condition: 'condition',
  sellerNumber: 'number',
  location: 'location',
  image: 'photos',
  photos: 'photos',
  description: 'description',
  imei: 'imei',
};

const required = { required: TEXT.validation.requiredField };
/** A rule that reads the field as the server will, and says what is wrong in the label's words. */
const readable = (read: (typed: string) => Read<unknown>) => ({
  ...required,
  validate: (typed: unknown) => {
    const answer = read(String(typed ?? ''));
    return answer.ok || answer.message;
  },
});

/** The form's rules that go beyond 'Required Field': each typed field read as the server reads it. */
export const RULES = {
  resellPrice: readable((v) => readDollars('resellPrice', v)),
  originalPrice: readable((v) => readDollars('originalPrice', v)),
  battery: readable(readBattery),
  timeUsed: readable(readTimeUsed),
  batteryHealth: {
    validate: (typed: unknown) => {
      const answer = readBatteryHealth(String(typed ?? ''));
      return answer.ok || answer.message;
    },
  },
  imei: {
    ...required,
    validate: (typed: unknown) => imeiProblem(String(typed ?? '')) ?? true,
  },
} as const;

/**
 * Puts each problem of a refused save beside its field; answers whether any was placed (else the
 * caller tells the error another way).
 */
export function showFieldErrors(
  error: unknown,
  setError: UseFormReturn<ProductFormValues>['setError'],
  present: (name: Name) => boolean,
): boolean {
  if (!(error instanceof ApiError)) return false;
  let placed = false;
  for (const [path, message] of Object.entries(error.fields)) {
    const name = FIELD_OF_PATH[path];
    if (name && present(name)) {
      setError(name, { type: 'server', message }, { shouldFocus: !placed });
      placed = true;
    }
  }
  return placed;
}

/** After a refused save: beside the fields when the server named them, else in a toast. */
export function tellSaveError(
  error: unknown,
  setError: UseFormReturn<ProductFormValues>['setError'],
  present: (name: Name) => boolean,
  fallback: string,
) {
  if (showFieldErrors(error, setError, present)) toast.error(SELLING_TEXT.fixFields);
  else toastError(error, fallback);
}

export const useProductForm = (defaultValues: Partial<ProductFormValues>) =>
  useForm<ProductFormValues>({ mode: 'onSubmit', reValidateMode: 'onChange', defaultValues });

type ProductFieldsProps = {
  form: UseFormReturn<ProductFormValues>;
  /** Add A Product asks for the IMEI; an edit shows its last four digits instead. */
  imei: { ask: true } | { ask: false; last4: string | null };
  /** The photos (Add A Product's picker, or a link to the photos page when editing). */
  photos: ReactNode;
  /** Beside the prices: the fair-price guide, when there is one. */
  priceGuide?: ReactNode;
  /** Under the resale price: what the seller receives after the marketplace's fee (issue 30). */
  priceNote?: ReactNode;
  submitLabel: string;
  busy: boolean;
};

export const fieldId = (name: Name) => `product-${name}`;

/** The fields and the submit button; the caller's <form> holds them. */
export function ProductFields({
  form,
  imei,
  photos,
  priceGuide,
  priceNote,
  submitLabel,
  busy,
}: ProductFieldsProps) {
  const {
    register,
    formState: { errors },
  } = form;
  // Beside its field, a message does not repeat the field's label (listing-input.ts).
  const messageOf = (name: Name) => {
    const message = errors[name as keyof ProductFormValues]?.message;
    return typeof message === 'string' ? besideItsField(message) : undefined;
  };
  const hintId = (name: Name) => `${fieldId(name)}-hint`;

  const textField = (
    name: Name,
    label: string,
    {
      rules = required,
      hint,
      after,
      ...extra
    }: { rules?: object; hint?: string; after?: ReactNode } & Record<string, unknown> = {},
  ) => (
    <div>
      <TextField
        id={fieldId(name)}
        label={label}
        error={messageOf(name)}
        errorAt="label"
        {...extra}
        {...(hint && !messageOf(name) ? { 'aria-describedby': hintId(name) } : {})}
        registration={register(name, rules)}
      />
      {hint && (
        <p id={hintId(name)} className="mt-1 text-sm text-current/70">
          {hint}
        </p>
      )}
      {after}
    </div>
  );
  const field = (name: Name, label: string, control: ReactNode) => (
    <Field id={fieldId(name)} label={label} error={messageOf(name)} errorAt="label">
      {control}
    </Field>
  );
  const select = (
    name: Name,
    label: string,
    options: readonly { value: string; label: string }[],
  ) =>
    field(
      name,
      label,
      <select
        id={fieldId(name)}
        className="select w-full"
        {...describedBy(fieldId(name), messageOf(name))}
        {...register(name, required)}
      >
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
    <>
      {select(
        'categoryId',
        LISTING_LABELS.categoryId,
        CATEGORIES.map((c) => ({ value: c.categoryId, label: c.name })),
      )}
      {textField('modelName', LISTING_LABELS.modelName)}
      {select('ram', LISTING_LABELS['specificatons.ram'], same(RAM_OPTIONS))}
      {select(
        'storage',
        LISTING_LABELS['specificatons.storage'],
        STORAGE_OPTIONS.map((s) => ({ value: s, label: s === '1 GTB' ? '1 TB' : s })),
      )}
      {textField('color', LISTING_LABELS['specificatons.color'])}
      {textField('battery', LISTING_LABELS['specificatons.battery'], {
        rules: RULES.battery,
        placeholder: TEXT.placeholders.battery,
        inputMode: 'text',
      })}
      {textField('batteryHealth', LISTING_LABELS.batteryHealth, {
        rules: RULES.batteryHealth,
        hint: SELLING_TEXT.batteryHealthHint,
        inputMode: 'numeric',
      })}
      {imei.ask
        ? textField('imei', LISTING_LABELS.imei, {
            rules: RULES.imei,
            hint: SELLING_TEXT.imeiHint,
            inputMode: 'numeric',
            autoComplete: 'off',
          })
        : imei.last4 && (
            <p className="fieldset self-end text-sm text-current/80">
              {SELLING_TEXT.imeiShown(imei.last4)}
            </p>
          )}
      {textField('resellPrice', LISTING_LABELS.resellPrice, {
        rules: RULES.resellPrice,
        hint: SELLING_TEXT.pricesHint,
        inputMode: 'decimal',
        after: priceNote,
      })}
      {textField('originalPrice', LISTING_LABELS.originalPrice, {
        rules: RULES.originalPrice,
        inputMode: 'decimal',
      })}
      {priceGuide && <div className="md:col-span-2">{priceGuide}</div>}
      {textField('timeUsed', LISTING_LABELS.timeUsed, {
        rules: RULES.timeUsed,
        placeholder: TEXT.placeholders.timeUsed,
        hint: SELLING_TEXT.timeUsedHint,
      })}
      {select('condition', LISTING_LABELS.condition, same(CONDITION_OPTIONS))}
      {textField('name', 'Seller name', { readOnly: true })}
      {textField('number', LISTING_LABELS.sellerNumber, { type: 'tel', autoComplete: 'tel' })}
      {textField('location', LISTING_LABELS.location)}
      <div className="md:col-span-2">{photos}</div>
      <div className="md:col-span-2">
        {field(
          'description',
          LISTING_LABELS.description,
          <textarea
            id={fieldId('description')}
            className="textarea h-28 w-full"
            {...describedBy(fieldId('description'), messageOf('description'))}
            {...register('description', required)}
          />,
        )}
      </div>
      <div className="mt-4 md:col-span-2">
        <button type="submit" className="btn btn-primary w-full md:w-auto" disabled={busy}>
          {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
          {submitLabel}
        </button>
      </div>
    </>
  );
}

/** The body fields the form sends, as typed: the server reads them as the form did. */
export const listingFields = (v: ProductFormValues) => ({
  categoryId: v.categoryId as (typeof CATEGORIES)[number]['categoryId'],
  modelName: v.modelName,
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
  batteryHealth: v.batteryHealth?.trim() ? v.batteryHealth : null,
});
