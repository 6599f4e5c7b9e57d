import { describedBy, Field } from '@client/components/ui/field';
import { ApiError } from '@client/lib/api-client';
import { HIDDEN_CONTACT_NOTICE, MESSAGE_MAX_LENGTH } from '@shared/messages';
import { TEXT } from '@shared/texts';
import { type FormEvent, useId, useState } from 'react';

/** The words of the form, shared by the phone's page and a conversation's. */
const FORM_TEXT = {
  label: 'Your message',
  send: 'Send',
  sent: 'Your message is sent.',
  hiddenSent:
    'Sent, with the contact details hidden: they show once the buyer pays through Phone Market.',
};

/**
 * A message to write and send (issue 20). Before a payment the form says up front that contact details
 * will be hidden, and after a send whether any were.
 */
export function MessageForm({
  label = FORM_TEXT.label,
  placeholder,
  paid,
  send,
  pending,
}: {
  label?: string;
  placeholder?: string;
  paid: boolean;
  send: (body: string) => Promise<{ hidden: boolean }>;
  pending: boolean;
}) {
  const id = `message-${useId()}`;
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState('');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!body.trim()) return setError(TEXT.validation.fieldRequired);
    setError(null);
    setStatus('');
    try {
      const { hidden } = await send(body.trim());
      setBody('');
      setStatus(hidden ? FORM_TEXT.hiddenSent : FORM_TEXT.sent);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : 'The message was not sent.');
    }
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-2">
      <Field id={id} label={label} error={error ?? undefined}>
        <textarea
          id={id}
          className="textarea w-full"
          rows={3}
          maxLength={MESSAGE_MAX_LENGTH}
          placeholder={placeholder}
          value={body}
          onChange={(event) => setBody(event.target.value)}
          {...describedBy(id, error ?? undefined)}
        />
      </Field>
      {!paid && <p className="text-xs text-current/80">{HIDDEN_CONTACT_NOTICE}</p>}
      <div className="flex items-center justify-end gap-3">
        <p role="status" className="text-sm">
          {status}
        </p>
        <button type="submit" className="btn btn-primary" disabled={pending}>
          {pending && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
          {FORM_TEXT.send}
        </button>
      </div>
    </form>
  );
}
