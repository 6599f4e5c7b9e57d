/**
 * Bulk listing (issue 35, decision 057): the CSV template's columns, the limits of an upload,
 * and what the page is told of an upload and its rows. The server reads the files
 * (server/bulk); the page shows these.
 */
import { LISTING_LABELS } from './listing-input';

/** The template's columns, in order: Add A Product's labels (the seller's name is the account's). */
export const BULK_COLUMNS = [
  LISTING_LABELS.categoryId,
  LISTING_LABELS.modelName,
  LISTING_LABELS['specificatons.ram'],
  LISTING_LABELS['specificatons.storage'],
  LISTING_LABELS['specificatons.color'],
  LISTING_LABELS['specificatons.battery'],
  LISTING_LABELS.batteryHealth,
  LISTING_LABELS.imei,
  LISTING_LABELS.resellPrice,
  LISTING_LABELS.originalPrice,
  LISTING_LABELS.timeUsed,
  LISTING_LABELS.condition,
  LISTING_LABELS.sellerNumber,
  LISTING_LABELS.location,
  LISTING_LABELS.description,
  LISTING_LABELS.photos,
] as const;
export type BulkColumn = (typeof BULK_COLUMNS)[number];

/** Photos in one cell of the Photos column are separated by this, the cover first. */
export const BULK_PHOTO_SEPARATOR = '|';

export const BULK_MAX_ROWS = 500;
export const BULK_CSV_MAX_BYTES = 2 * 1024 * 1024;
export const BULK_RECORD_MAX_BYTES = 32 * 1024;
export const BULK_ZIP_MAX_BYTES = 200 * 1024 * 1024;
export const BULK_ZIP_MAX_ENTRIES = 4000;
/** All photos of one ZIP together, unpacked. */
export const BULK_UNPACKED_MAX_BYTES = 400 * 1024 * 1024;
/** How long a preview waits for the seller's confirmation (its photos are loose for a day). */
export const BULK_PREVIEW_HOURS = 20;

/** A problem of a row: the column it is about (a label of BULK_COLUMNS, or `Row`), in the form's words. */
export type BulkProblem = { column: BulkColumn | 'Row'; message: string };

/**
 * What the page shows of a row: its number as a spreadsheet numbers it (the header is row 1, so
 * the first phone is row 2), the model it names, its problems (none: it can be listed), and what
 * became of it once listing began.
 */
export type BulkRowReport = {
  row: number;
  model: string;
  problems: BulkProblem[];
  outcome?: { listed: true; productId: string } | { listed: false; message: string };
};

/**
 * An upload's state: `photos` (its ZIP being read in the background), `preview` (waiting for the
 * seller to list its valid rows), `listing` (being listed in the background), `done`, `refused`
 * (the file as a whole was refused: `message` says why), `expired` (the preview waited too long).
 */
export const BULK_STATUSES = [
  'photos',
  'preview',
  'listing',
  'done',
  'refused',
  'expired',
] as const;
export type BulkStatus = (typeof BULK_STATUSES)[number];
