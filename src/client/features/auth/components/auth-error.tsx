import type { IdentityErrorCode } from '@shared/identity';

/** The provider's error code text, as the spec shows it ('wrong-password'). */
export function AuthError({ code }: { code: IdentityErrorCode | null }) {
  if (!code) return null;
  return (
    <p role="alert" className="font-medium text-error">
      {code}
    </p>
  );
}
