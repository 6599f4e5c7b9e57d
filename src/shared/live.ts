/**
 * What the live stream tells (issue 31, decision 043). An event names a subject, and the id of the
 * thing when there is one: `event: order` with `data: {"id": "…"}`. It carries no content; a page
 * refreshes every view that shows that subject (the client's query roots say which).
 */
export const LIVE_SUBJECTS = [
  /** The bell: a notification written, or read elsewhere. */
  'notification',
  /** A phone: its price, photos, details or status changed, or it was deleted. */
  'product',
  /** A sale took a step: booked, paid, cancelled, handed over, reported, refunded, expired. */
  'order',
  /** A conversation: a message in it, or read by a side. */
  'conversation',
  /** A seller's money moved (the ledger). */
  'money',
  /** An account's standing: a seller verified. */
  'account',
] as const;

export type LiveSubject = (typeof LIVE_SUBJECTS)[number];

/** Sent to the page itself when its stream (re)opens: whatever happened meanwhile is unknown. */
export const LIVE_RECONNECTED = 'reconnected';

export type LiveEvent = { subject: LiveSubject; id: string | null };

export const isLiveSubject = (name: string): name is LiveSubject =>
  (LIVE_SUBJECTS as readonly string[]).includes(name);
