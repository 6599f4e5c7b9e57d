/**
 * Scams caught before they cost anyone (issue 34, decision 052): reports of a listing or a
 * seller, the risk signals the server computes, and the admin's review queue, as the API carries
 * them. Kept apart from the entities so the phone page's report dialog needs only these names.
 */
import { z } from 'zod';
import { idSchema, instantSchema } from './entities';
import {
  REPORT_NOTE_MAX,
  REPORT_REASONS,
  REPORT_STATUSES,
  REVIEW_ACTIONS,
  REVIEW_TARGETS,
} from './risk-names';

export * from './risk-names';

export const reportInputSchema = z.object({
  reason: z.enum(REPORT_REASONS, {
    error: `reason must be one of ${REPORT_REASONS.join(', ')}`,
  }),
  note: z.string().trim().max(REPORT_NOTE_MAX, 'note is too long').default(''),
});
export type ReportInput = z.input<typeof reportInputSchema>;

/** A report as its reporter sees it (their own only). */
export const myReportSchema = z.object({
  _id: idSchema,
  /** What was reported: a listing (its phone's name) or a seller (their name). */
  target: z.object({
    kind: z.enum(['listing', 'seller']),
    id: idSchema.nullable(),
    name: z.string(),
  }),
  reason: z.enum(REPORT_REASONS),
  note: z.string(),
  status: z.enum(REPORT_STATUSES),
  createdAt: instantSchema,
  decidedAt: instantSchema.nullable(),
});
export type MyReport = z.infer<typeof myReportSchema>;

/** One rule that fired, in plain words. */
export const riskSignalSchema = z.object({
  rule: z.string(),
  sentence: z.string(),
  weight: z.number().int(),
  at: instantSchema,
});
export type RiskSignal = z.infer<typeof riskSignalSchema>;

/** A photo of the listing next to the other seller's photo it copies. */
export const photoMatchSchema = z.object({
  photo: z.string(),
  matchedPhoto: z.string(),
  matchedProductId: idSchema.nullable(),
  /** Bits that differ between the two perceptual hashes (0: the same picture). */
  distance: z.number().int().nonnegative(),
});
export type PhotoMatch = z.infer<typeof photoMatchSchema>;

export const reviewReportSchema = z.object({
  _id: idSchema,
  reason: z.enum(REPORT_REASONS),
  note: z.string(),
  reporterName: z.string(),
  createdAt: instantSchema,
});

/** One entry of the admin's review queue: a listing or an account, with why it is there. */
export const reviewItemSchema = z.object({
  kind: z.enum(['listing', 'account']),
  id: idSchema,
  score: z.number().int(),
  /** A listing held back from buyers until the admin clears it. */
  held: z.boolean(),
  title: z.string(),
  listing: z
    .object({
      _id: idSchema,
      price: z.number(),
      guidePrice: z.number().nullable(),
      photos: z.array(z.string()),
      status: z.string(),
      createdAt: instantSchema,
    })
    .nullable(),
  seller: z.object({
    _id: idSchema,
    name: z.string(),
    email: z.string(),
    joinedAt: instantSchema,
    listings: z.number().int(),
    sales: z.number().int(),
    disputes: z.number().int(),
  }),
  signals: z.array(riskSignalSchema),
  photoMatches: z.array(photoMatchSchema),
  reports: z.array(reviewReportSchema),
});
export type ReviewItem = z.infer<typeof reviewItemSchema>;

export const reviewActionInputSchema = z.object({
  target: z.enum(REVIEW_TARGETS),
  id: idSchema,
  action: z.enum(REVIEW_ACTIONS),
  note: z.string().trim().max(500, 'note is too long').default(''),
});
export type ReviewActionInput = z.input<typeof reviewActionInputSchema>;

/** A decision of the review queue, as its record keeps it. */
export const reviewRecordSchema = z.object({
  _id: z.string(),
  target: z.enum(REVIEW_TARGETS),
  subjectId: idSchema,
  subject: z.string(),
  action: z.enum(REVIEW_ACTIONS),
  note: z.string(),
  adminName: z.string(),
  at: instantSchema,
});
export type ReviewRecord = z.infer<typeof reviewRecordSchema>;
