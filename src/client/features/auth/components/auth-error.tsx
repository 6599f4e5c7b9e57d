import type { IdentityErrorCode } from '@shared/identity';
import { useId } from 'react';
import { IDENTITY_ERROR_SENTENCES } from './identity-sentences';

/**
 * The provider's error code text, as the spec shows it ('wrong-password'), then a sentence a
 * person understands, on its own line and linked to the alert as its description.
 */
export function AuthError({ code }: { code: IdentityErrorCode | null }) {
  const id = useId();
  if (!code) return null;
  return (
    <div>
      <p role="alert" aria-describedby={`${id}-sentence`} className="font-medium text-error">
        {code}
      </p>
      <p id={`${id}-sentence`} className="text-sm">
        {IDENTITY_ERROR_SENTENCES[code]}
      </p>
    </div>
  );
}
