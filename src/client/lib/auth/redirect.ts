/** The remembered page to return to after signing in: only a path on this site. */
const SELF = 'http://self.invalid';

export function safeFrom(from: string | null | undefined): string {
  if (!from?.startsWith('/') || from.startsWith('//') || from.startsWith('/\\')) return '/';
  // What a browser would make of it (tabs and newlines dropped, backslashes read as slashes)
  // must still be on this site: "/\t/evil.example" is "//evil.example" to a browser.
  try {
    const url = new URL(from, SELF);
    if (url.origin !== SELF) return '/';
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return '/';
  }
}

export const signInPathFrom = (from: string): string => `/signin?from=${encodeURIComponent(from)}`;

export const signUpPathFrom = (from: string): string => `/signup?from=${encodeURIComponent(from)}`;

/** `path` carrying the remembered page on, unless there is none to remember (it is '/'). */
export const withFrom = (path: string, from: string): string =>
  from === '/' ? path : `${path}?from=${encodeURIComponent(from)}`;
