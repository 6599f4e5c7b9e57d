/** Parses the `Link: <...>; rel="next"` header of a paged list. */
export function nextLink(header: string | null | undefined): string | null {
  if (!header) return null;
  for (const part of header.split(',')) {
    const match = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part.trim());
    if (match?.[1]) return match[1];
  }
  return null;
}
