/** The remembered page to return to after signing in: only a path on this site. */
export function safeFrom(from: string | null | undefined): string {
  if (!from?.startsWith('/') || from.startsWith('//') || from.startsWith('/\\')) return '/';
  return from;
}

export const signInPathFrom = (from: string): string => `/signin?from=${encodeURIComponent(from)}`;
