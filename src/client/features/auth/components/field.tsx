import type { InputHTMLAttributes, ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';

type FieldProps = {
  id: string;
  label: string;
  error?: string;
  children: ReactNode;
};

/** A labelled form field whose message appears below it and is announced with the input. */
export function Field({ id, label, error, children }: FieldProps) {
  return (
    <div className="fieldset">
      <label htmlFor={id} className="fieldset-legend">
        {label}
      </label>
      {children}
      {error && (
        <p id={`${id}-error`} className="text-sm text-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

export const describedBy = (id: string, error?: string) =>
  error ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-error` } : {};

type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & {
  id: string;
  label: string;
  error?: string;
  registration: UseFormRegisterReturn;
};

/** A labelled text input registered with react-hook-form, its message below it. */
export function TextField({ id, label, error, registration, ...input }: TextFieldProps) {
  return (
    <Field id={id} label={label} error={error}>
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
