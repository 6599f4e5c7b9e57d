/** What a signed-out visitor was doing to a phone, done again once signed in. */
export type PhoneAction = 'book' | 'wish';
export const PHONE_ACTIONS: readonly PhoneAction[] = ['book', 'wish'];

/**
 * The page the visitor is on (a brand page, a search, a phone's page), asking it to reopen the
 * booking form or add the phone to the wish list once they are back from signing in.
 */
export function phoneActionPath(
  here: { pathname: string; search: string },
  productId: string,
  action: PhoneAction,
): string {
  const params = new URLSearchParams(here.search);
  for (const a of PHONE_ACTIONS) params.delete(a);
  params.set(action, productId);
  return `${here.pathname}?${params}`;
}
