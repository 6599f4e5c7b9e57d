import { Modal } from '@client/components/ui/modal';
import {
  nameRefused,
  SavedSearchFields,
  type SavedSearchValues,
} from '@client/components/ui/saved-search-fields';
import { ApiError } from '@client/lib/api-client';
import { queryRoots } from '@client/lib/query-keys';
import { toastWithLink } from '@client/lib/toast-with-link';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { saveSearch } from '../api/save-search';
import { SAVE_SEARCH_TEXT } from '../texts';

/** The buyer's saved searches, where the toast after saving leads. */
const SAVED_SEARCHES_PATH = '/dashboard/saved-searches';

/**
 * Saving the search on screen (issue 33): its name, offered from its words and filters, and how
 * the buyer hears of new phones. The server's refusals show in the dialog: a field's beside it,
 * the limit of saved searches (409) above the buttons.
 */
export function SaveSearchDialog({
  search,
  defaultName,
  onClose,
}: {
  /** The search's query string, as the search call takes it. */
  search: string;
  defaultName: string;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [refusal, setRefusal] = useState<string | null>(null);
  const form = useForm<SavedSearchValues>({
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    defaultValues: { name: defaultName, frequency: 'instant' },
  });
  const {
    handleSubmit,
    setError,
    formState: { isSubmitting },
  } = form;

  const onSubmit = async ({ name, frequency }: SavedSearchValues) => {
    setRefusal(null);
    try {
      await saveSearch({ name: name.trim(), search, frequency });
    } catch (error) {
      if (!nameRefused(error, setError))
        setRefusal(error instanceof ApiError ? error.message : SAVE_SEARCH_TEXT.notSaved);
      return;
    }
    await queryClient.invalidateQueries({ queryKey: queryRoots.savedSearches });
    toastWithLink(
      'success',
      SAVE_SEARCH_TEXT.saved,
      { text: SAVE_SEARCH_TEXT.savedLink, to: SAVED_SEARCHES_PATH },
      navigate,
    );
    onClose();
  };

  return (
    <Modal open onClose={onClose} title={SAVE_SEARCH_TEXT.title}>
      <form onSubmit={handleSubmit(onSubmit)} noValidate>
        <SavedSearchFields form={form} idPrefix="save-search" />
        {refusal && (
          <p role="alert" className="alert alert-error alert-soft mt-3 text-sm">
            {refusal}
          </p>
        )}
        <div className="modal-action">
          <button type="button" className="btn" onClick={onClose}>
            {SAVE_SEARCH_TEXT.cancel}
          </button>
          <button type="submit" className="btn btn-primary" disabled={isSubmitting}>
            {isSubmitting && (
              <span className="loading loading-spinner loading-sm" aria-hidden="true" />
            )}
            {SAVE_SEARCH_TEXT.save}
          </button>
        </div>
      </form>
    </Modal>
  );
}
