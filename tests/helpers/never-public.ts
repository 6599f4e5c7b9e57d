/**
 * What no public answer or page may carry (issue 29; ARCHITECTURE.md, 'Who may do what'): a way
 * to reach a person. The authorization matrix and tests/api/security/public-privacy.test.ts
 * check every public call and page against it.
 */
import { expect } from 'vitest';

/** Fields that hold a way to reach someone, under any of the names the contract gives them. */
export const NEVER_IN_A_PUBLIC_ANSWER = [
  'email',
  'sellerNumber',
  'sellerEmail',
  'buyerEmail',
  'number',
  'phone',
  'phoneNumber',
] as const;

const never = new Set<string>(NEVER_IN_A_PUBLIC_ANSWER);

/** The paths (`products[0].email`) of every field of the list in a JSON value. */
export function contactFieldsIn(value: unknown, at = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => contactFieldsIn(v, `${at}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, v]) => [
    ...(never.has(key) ? [`${at}.${key}`] : []),
    ...contactFieldsIn(v, `${at}.${key}`),
  ]);
}

/** The JSON a server-rendered page carries for its hydration, parsed (null when it has none). */
export function pageState(html: string): unknown {
  const state = /<script type="application\/json" id="[^"]+">([\s\S]*?)<\/script>/.exec(html);
  return state?.[1] ? JSON.parse(state[1]) : null;
}

/** A phone number as a pattern that finds its digits with up to three other characters between. */
const numberPattern = (number: string) =>
  new RegExp(number.replace(/\D/g, '').split('').join('[^0-9A-Za-z]{0,3}'));

/**
 * Checks an answer or a page: none of the contact fields, and none of the people's addresses or
 * numbers written anywhere in it (a page's text, its state, an attribute).
 */
export function expectNoContact(
  what: string,
  body: string,
  contacts: { emails: string[]; numbers: string[] },
  json?: unknown,
) {
  const lower = body.toLowerCase();
  for (const email of contacts.emails)
    expect(lower.includes(email.toLowerCase()), `${what} shows ${email}`).toBe(false);
  for (const number of contacts.numbers)
    expect(numberPattern(number).test(body), `${what} shows ${number}`).toBe(false);
  if (json !== undefined) expect(contactFieldsIn(json), `${what}: contact fields`).toEqual([]);
}
