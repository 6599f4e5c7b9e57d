/**
 * The names of issue 34 (decision 052: reports, risk signals, the review queue) without their
 * schemas: the server's tables, the seller's "Under review" and the message warning need these
 * alone, so no page loads zod for them.
 */
/** Why a person reports a listing or a seller, and how the dialog says each. */
export const REPORT_REASONS = ['scam', 'stolen', 'wrong-details', 'offensive', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
export const REPORT_REASON_LABELS: Record<ReportReason, string> = {
  scam: 'Scam, or too good to be true',
  stolen: 'The phone may be stolen',
  'wrong-details': 'Wrong details',
  offensive: 'Offensive',
  other: 'Something else',
};
export const REPORT_NOTE_MAX = 1000;

/** A report is open until the admin decides it: upheld (something was done) or dismissed. */
export const REPORT_STATUSES = ['open', 'upheld', 'dismissed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** What a risk signal is about. */
export const RISK_SUBJECTS = ['listing', 'account', 'message'] as const;
export type RiskSubject = (typeof RISK_SUBJECTS)[number];

/** What the admin may do from the review queue. */
export const REVIEW_ACTIONS = ['clear', 'withdraw', 'ban', 'dismiss'] as const;
export type ReviewAction = (typeof REVIEW_ACTIONS)[number];
/** What each action is taken on: a listing or an account, or a report. */
export const REVIEW_TARGETS = ['listing', 'account', 'report'] as const;
export type ReviewTarget = (typeof REVIEW_TARGETS)[number];

/** The warning shown with a message that asks to pay or talk outside the marketplace. */
export const OFF_PLATFORM_WARNING =
  'Never pay outside Phone Market: your money is only protected here.';
/** What a seller sees of a held listing: no reason that helps a scammer tune around it. */
export const UNDER_REVIEW = 'Under review';
