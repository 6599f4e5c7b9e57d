import type { InputHTMLAttributes, ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';

type FieldProps = {
  id: string;
  label: string;
  error?: string | undefined;
  /**
   * Where the message shows: below the input, or beside the label, where the spec puts
   * 'Required Field' on the product and booking forms.
   */
  errorAt?: 'below' | 'label';
  children: ReactNode;
};

/** A labelled form field whose message is announced with the input (see `describedBy`). */
export function Field({ id, label, error, errorAt = 'below', children }: FieldProps) {
  return (
    <div className="fieldset">
      <label htmlFor={id} className="fieldset-legend">
        {label}
        {error && errorAt === 'label' && (
          <span id={`${id}-error`} role="alert" className="ml-2 font-normal text-error">
            {error}
          </span>
        )}
      </label>
      {children}
      {error && errorAt === 'below' && (
        <p id={`${id}-error`} className="text-sm text-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** The input's attributes that tie it to its field's message, while there is one. */
export const describedBy = (id: string, error?: string) =>
  error ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-error` } : {};

type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> &
  Pick<FieldProps, 'id' | 'label' | 'error' | 'errorAt'> & {
    registration: UseFormRegisterReturn;
  };

/** A labelled text input registered with react-hook-form. */
export function TextField({ id, label, error, errorAt, registration, ...input }: TextFieldProps) {
  return (
    <Field id={id} label={label} error={error} errorAt={errorAt}>
      <input
        id={id}
        className="input w-full"
        {...describedBy(id, error)}
        {...input}
        {...registration}
      />
    </Field>
  );
}
