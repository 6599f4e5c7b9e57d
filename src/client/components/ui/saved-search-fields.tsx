/**
 * A saved search's name and how its buyer hears of new phones (issue 33): the fields of saving a
 * search from the search page and of editing one on the saved searches page.
 */
import { ApiError } from '@client/lib/api-client';
import {
  SAVED_SEARCH_FREQUENCIES,
  SAVED_SEARCH_NAME_MAX,
  type SavedSearchFrequency,
} from '@shared/constants';
import { TEXT } from '@shared/texts';
import type { UseFormReturn } from 'react-hook-form';
import { TextField } from './field';

export const SAVED_SEARCH_FIELD_TEXT = {
  name: 'Name',
  how: 'How should we tell you?',
  frequency: {
    instant: 'At once (bell and e-mail)',
    daily: 'Daily digest',
  } satisfies Record<SavedSearchFrequency, string>,
} as const;

export type SavedSearchValues = { name: string; frequency: SavedSearchFrequency };

export function SavedSearchFields({
  form,
  idPrefix,
}: {
  form: UseFormReturn<SavedSearchValues>;
  idPrefix: string;
}) {
  const {
    register,
    formState: { errors },
  } = form;
  return (
    <>
      <TextField
        id={`${idPrefix}-name`}
        label={SAVED_SEARCH_FIELD_TEXT.name}
        error={errors.name?.message}
        maxLength={SAVED_SEARCH_NAME_MAX}
        autoComplete="off"
        registration={register('name', {
          validate: (v) => v.trim().length > 0 || TEXT.validation.fieldRequired,
        })}
      />
      <fieldset className="fieldset mt-2">
        <legend className="fieldset-legend">{SAVED_SEARCH_FIELD_TEXT.how}</legend>
        {SAVED_SEARCH_FREQUENCIES.map((frequency) => (
          <label key={frequency} className="label cursor-pointer gap-2 text-base-content">
            <input
              type="radio"
              className="radio radio-sm"
              value={frequency}
              {...register('frequency')}
            />
            {SAVED_SEARCH_FIELD_TEXT.frequency[frequency]}
          </label>
        ))}
      </fieldset>
    </>
  );
}

/**
 * A refused save's problem with the name, put beside the name; answers whether it was (else the
 * caller tells the error another way).
 */
export function nameRefused(
  error: unknown,
  setError: UseFormReturn<SavedSearchValues>['setError'],
): boolean {
  const message = error instanceof ApiError ? error.fields.name : undefined;
  if (!message) return false;
  setError('name', { type: 'server', message }, { shouldFocus: true });
  return true;
}
