/**
 * Bulk listing's rows with their photos (decision 057): a photo's problem fails every row naming
 * it, and a row with none is read once more by `productInputSchema`, now with its photos' URLs,
 * so what is listed passed exactly the rules Add A Product's body passes.
 */
import type { z } from 'zod';
import { productInputSchema } from '../../shared/api';
import type { BulkProblem } from '../../shared/bulk';
import { LISTING_LABELS } from '../../shared/listing-input';
import { type BulkCsvRow, inColumnOrder, photoKey, problemOf } from './csv-rows';
import type { ZipPhoto } from './zip-photos';

/** A row ready to list (`input`, present exactly when it has no problem), or its problems. */
export type BulkReadyRow = {
  row: number;
  model: string;
  problems: BulkProblem[];
  input?: z.output<typeof productInputSchema>;
};

/** Each row with its photos (`photos` by lower-case base name, as `readZipPhotos` answers). */
export function withPhotos(
  rows: readonly BulkCsvRow[],
  photos: ReadonlyMap<string, ZipPhoto>,
): BulkReadyRow[] {
  const column = LISTING_LABELS.photos;
  return rows.map(({ row, model, problems: cells, photoNames, body }) => {
    const problems = [...cells];
    const urls: string[] = [];
    for (const name of photoNames) {
      const photo = photos.get(photoKey(name));
      if (photo?.ok) urls.push(photo.url);
      else
        problems.push({
          column,
          message: photo?.message ?? `${column}: ${name}: is not in the ZIP`,
        });
    }
    if (problems.length > 0) return { row, model, problems: inColumnOrder(problems) };
    const read = productInputSchema.safeParse({ ...body, image: urls[0], photos: urls });
    if (!read.success)
      return { row, model, problems: inColumnOrder(read.error.issues.map(problemOf)) };
    return { row, model, problems: [], input: read.data };
  });
}
