/**
 * Bulk listing (issue 35, decision 057): the template, an upload of a CSV and a ZIP of photos,
 * its progress and preview, and the seller's go-ahead to list it. A seller's own uploads alone:
 * another's is a 404, as if it did not exist.
 */
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import { BULK_CSV_MAX_BYTES, BULK_ZIP_MAX_BYTES } from '../../shared/bulk';
import { bulkTemplateCsv } from '../bulk/template';
import { BULK_ZIP_REQUIRED, type BulkUploads, privateZipPath, removeZip } from '../bulk/uploads';
import { DomainError } from '../domain/domain-error';
import { callerOf } from '../plugins/auth';
import { contractRoutes } from './contract-routes';

const MB = 1024 * 1024;
const CSV_TOO_LARGE = `The CSV is larger than ${BULK_CSV_MAX_BYTES / MB} MB; split it into files of at most 500 phones`;
const ZIP_TOO_LARGE = `The ZIP is larger than ${BULK_ZIP_MAX_BYTES / MB} MB; send the photos in smaller uploads`;

export default contractRoutes<{ bulk: BulkUploads }>(async (route, app, { bulk }) => {
  await app.register(multipart, {
    // The ZIP's limit; the CSV's smaller one is counted as it arrives.
    limits: { fileSize: BULK_ZIP_MAX_BYTES, files: 2, fields: 5, parts: 7, fieldSize: 1024 },
  });

  route('bulkTemplate', async (_request, reply) =>
    reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="phones-template.csv"')
      .send(bulkTemplateCsv()),
  );

  route('bulkUploads', { limit: { perMinute: 120 } }, async (request) =>
    bulk.history(callerOf(request)),
  );

  route(
    'startBulkUpload',
    { limit: { perMinute: 10 }, status: 202, consumes: ['multipart/form-data'] },
    async (request, reply) => {
      if (!request.isMultipart())
        throw DomainError.badRequest('Send the CSV and the ZIP as multipart/form-data.');
      let csv: Buffer | undefined;
      let zipPath: string | undefined;
      // Every part is read to its end before any refusal, so the answer never cuts a form short.
      let refusal: string | undefined;
      try {
        for await (const part of request.parts()) {
          if (part.type !== 'file') continue;
          if (part.fieldname === 'csv' && !csv && !refusal) {
            csv = await readCapped(part.file, BULK_CSV_MAX_BYTES);
            if (!csv) refusal = CSV_TOO_LARGE;
          } else if (part.fieldname === 'zip' && !zipPath) {
            zipPath = await privateZipPath();
            await pipeline(part.file, createWriteStream(zipPath, { mode: 0o600 }));
            if (part.file.truncated) refusal ??= ZIP_TOO_LARGE;
          } else part.file.resume();
        }
        if (refusal) throw DomainError.badRequest(refusal);
        if (!csv) throw DomainError.badRequest('Add the CSV file of your phones (field "csv")');
        if (!zipPath) throw DomainError.badRequest(BULK_ZIP_REQUIRED);
      } catch (err) {
        if (zipPath) await removeZip(zipPath);
        if (err instanceof DomainError) throw err;
        const code = (err as { code?: string }).code;
        if (code === 'FST_REQ_FILE_TOO_LARGE') throw DomainError.badRequest(ZIP_TOO_LARGE);
        if (code?.startsWith('FST_')) throw DomainError.badRequest((err as Error).message);
        request.log.info({ err }, 'unreadable bulk upload form');
        throw DomainError.badRequest('The files could not be read. Send them again.');
      }
      const caller = callerOf(request);
      const { id } = await bulk.start(caller, csv, zipPath);
      return reply.code(202).send(await bulk.view(caller, id));
    },
  );

  route('bulkUpload', { limit: { perMinute: 240 } }, async (request) =>
    bulk.withRows(callerOf(request), request.params.id),
  );

  route('listBulkUpload', { limit: { perMinute: 30 }, status: 202 }, async (request, reply) =>
    reply.code(202).send(await bulk.confirm(callerOf(request), request.params.id)),
  );
});

/** The stream's bytes, or undefined once they pass `max` (the rest is drained unkept). */
async function readCapped(stream: NodeJS.ReadableStream, max: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) over = true;
    else chunks.push(chunk);
  }
  return over ? undefined : Buffer.concat(chunks);
}
