/**
 * Add many phones (issue 35, decision 057): the template, an upload of the CSV and the ZIP of
 * photos, then the upload's progress and preview (every row's problems by its column, in the
 * form's words), and the go-ahead that lists the rows without problems in the background. The
 * upload shown is in the address (`?upload=…`), so the page can be left and come back to.
 */
import { DashboardPage } from '@client/components/layout/dashboard-page';
import { cell, DataTable } from '@client/components/ui/data-table';
import type { Answer } from '@client/lib/api-client';
import { ApiError } from '@client/lib/api-client';
import { toastError } from '@client/lib/feedback';
import { formatDateTime } from '@client/lib/format';
import { queryRoots } from '@client/lib/query-keys';
import {
  type QueryClient,
  useQuery,
  useQueryClient,
  useSuspenseQuery,
} from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import {
  bulkUploadQueryOptions,
  bulkUploadsQueryOptions,
  downloadBulkTemplate,
  sendBulkUpload,
  useListBulkUpload,
} from '../api/bulk-uploads';
import { BULK_TEXT } from '../bulk-texts';

export const addManyLoader = (queryClient: QueryClient) => async () => {
  await queryClient.ensureQueryData(bulkUploadsQueryOptions());
  return null;
};

export function AddManyRoute() {
  const [search, setSearch] = useSearchParams();
  const shown = search.get('upload');
  const show = (id: string) => setSearch({ upload: id });
  return (
    <DashboardPage title={BULK_TEXT.title}>
      <p>{BULK_TEXT.intro}</p>
      <section aria-labelledby="bulk-template" className="space-y-2">
        <h2 id="bulk-template" className="text-xl font-semibold">
          {BULK_TEXT.templateHeading}
        </h2>
        <p className="max-w-prose text-base-content/80">{BULK_TEXT.templateHint}</p>
        <button
          type="button"
          className="btn"
          onClick={() => downloadBulkTemplate().catch(toastError)}
        >
          {BULK_TEXT.download}
        </button>
      </section>
      <UploadForm onSent={show} />
      {shown && <UploadStatus id={shown} />}
      <History onShow={show} />
      <Link to="/dashboard/myproducts" className="link">
        {BULK_TEXT.backToProducts}
      </Link>
    </DashboardPage>
  );
}

function UploadForm({ onSent }: { onSent: (id: string) => void }) {
  const queryClient = useQueryClient();
  const form = useRef<HTMLFormElement>(null);
  const [percent, setPercent] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const csv = data.get('csv');
    const zip = data.get('zip');
    if (!(csv instanceof File) || !(zip instanceof File) || !csv.size || !zip.size) {
      setProblem(BULK_TEXT.chooseBoth);
      return;
    }
    setProblem(null);
    setPercent(0);
    try {
      const id = await sendBulkUpload({ csv, zip }, setPercent);
      form.current?.reset();
      await queryClient.invalidateQueries({ queryKey: bulkUploadsQueryOptions().queryKey });
      onSent(id);
    } catch (error) {
      setProblem(error instanceof ApiError ? error.message : String(error));
    } finally {
      setPercent(null);
    }
  };

  return (
    <section aria-labelledby="bulk-upload" className="space-y-3">
      <h2 id="bulk-upload" className="text-xl font-semibold">
        {BULK_TEXT.uploadHeading}
      </h2>
      <form ref={form} onSubmit={submit} className="flex max-w-xl flex-col gap-3" noValidate>
        <FileField name="csv" label={BULK_TEXT.csvLabel} accept=".csv,text/csv" />
        <FileField name="zip" label={BULK_TEXT.zipLabel} accept=".zip,application/zip" />
        {problem && (
          <p role="alert" className="alert alert-error">
            {problem}
          </p>
        )}
        {percent !== null && (
          <label className="flex flex-col gap-1">
            {BULK_TEXT.sending(percent)}
            <progress className="progress progress-primary w-full" value={percent} max={100} />
          </label>
        )}
        <button type="submit" className="btn btn-primary self-start" disabled={percent !== null}>
          {BULK_TEXT.upload}
        </button>
      </form>
    </section>
  );
}

/** A file input with its label, sent under `name`. */
function FileField({ name, label, accept }: { name: string; label: string; accept: string }) {
  const id = useId();
  return (
    <>
      <label htmlFor={id} className="font-medium">
        {label}
      </label>
      <input id={id} name={name} type="file" accept={accept} className="file-input w-full" />
    </>
  );
}

type Upload = Answer<'bulkUpload'>;

function UploadStatus({ id }: { id: string }) {
  const queryClient = useQueryClient();
  const { data: upload, error } = useQuery(bulkUploadQueryOptions(id));
  const listing = useListBulkUpload();
  const status = upload?.status;
  // The history below says each upload's state: it is read again as this one's changes. Once
  // rows are listed, My Products and the phones' pages are out of date too.
  useEffect(() => {
    if (!status) return;
    void queryClient.invalidateQueries({
      queryKey: bulkUploadsQueryOptions().queryKey,
      exact: true,
    });
    if (status === 'done')
      void queryClient.invalidateQueries({ queryKey: queryRoots.products, refetchType: 'active' });
  }, [status, queryClient]);

  if (error)
    return (
      <p role="alert" className="alert alert-error">
        {error.message}
      </p>
    );
  if (!upload)
    return <span className="loading loading-spinner" role="status" aria-label="Loading" />;
  return (
    <section aria-labelledby="bulk-status" className="space-y-3">
      <h2 id="bulk-status" className="text-xl font-semibold">
        {BULK_TEXT.status[upload.status]}: {formatDateTime(upload.createdAt)}
      </h2>
      <Progress upload={upload} />
      {upload.message && (
        <p role="alert" className="alert alert-error">
          {upload.message}
        </p>
      )}
      {upload.status === 'preview' && (
        <div className="space-y-2">
          <p>{BULK_TEXT.ready(upload.rowsReady, upload.rowsTotal)}</p>
          {upload.rowsReady < upload.rowsTotal && <p>{BULK_TEXT.fixHint}</p>}
          {upload.rowsReady > 0 && (
            <button
              type="button"
              className="btn btn-primary"
              disabled={listing.isPending}
              onClick={() => listing.mutate(id, { onError: toastError })}
            >
              {BULK_TEXT.list(upload.rowsReady)}
            </button>
          )}
        </div>
      )}
      {upload.status === 'done' && (
        <p role="status">
          {BULK_TEXT.listed(upload.rowsListed)}{' '}
          <Link to="/dashboard/myproducts" className="link">
            {BULK_TEXT.backToProducts}
          </Link>
        </p>
      )}
      {upload.status !== 'photos' && upload.rows.length > 0 && <Rows rows={upload.rows} />}
    </section>
  );
}

/** The bar while the server works: photos read, then rows listed; the page may be left. */
function Progress({ upload }: { upload: Upload }) {
  const [done, total, label] =
    upload.status === 'photos'
      ? [upload.photosDone, upload.photosTotal, BULK_TEXT.readingPhotos]
      : upload.status === 'listing'
        ? [upload.rowsDone, upload.rowsReady, BULK_TEXT.listing]
        : [null, null, null];
  if (done === null || total === null || !label) return null;
  return (
    <div className="space-y-1" role="status">
      <label className="flex flex-col gap-1">
        {label(done, total)}
        <progress className="progress progress-primary w-full" value={done} max={total || 1} />
      </label>
      <p className="text-sm text-base-content/80">{BULK_TEXT.leaveHint}</p>
    </div>
  );
}

const ROW_COLUMNS = Object.values(BULK_TEXT.columns);

/** Every row with its problems by column, or what became of it once listing began. */
function Rows({ rows }: { rows: Upload['rows'] }) {
  return (
    <DataTable columns={ROW_COLUMNS} label={BULK_TEXT.rowsCaption}>
      {rows.map((r) => (
        <tr key={r.row}>
          <th scope="row" {...cell(BULK_TEXT.columns.row)}>
            {r.row}
          </th>
          <td {...cell(BULK_TEXT.columns.model, 'title')}>{r.model || '—'}</td>
          <td {...cell(BULK_TEXT.columns.result)}>
            {r.outcome ? (
              r.outcome.listed ? (
                <Link to={`/product/${r.outcome.productId}`} className="link">
                  {BULK_TEXT.rowListed}
                </Link>
              ) : (
                <span className="text-error">
                  {BULK_TEXT.rowNotListed}: {r.outcome.message}
                </span>
              )
            ) : r.problems.length === 0 ? (
              BULK_TEXT.rowReady
            ) : (
              <ul className="list-disc space-y-1 ps-5 text-error">
                {r.problems.map((p) => (
                  <li key={`${p.column}:${p.message}`}>
                    {/* The form's own words, which start with the field's label. */}
                    {p.message.startsWith(`${p.column}: `)
                      ? p.message
                      : `${p.column}: ${p.message}`}
                  </li>
                ))}
              </ul>
            )}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

function History({ onShow }: { onShow: (id: string) => void }) {
  const { data: uploads } = useSuspenseQuery(bulkUploadsQueryOptions());
  if (uploads.length === 0) return null;
  const c = BULK_TEXT.historyColumns;
  return (
    <section aria-labelledby="bulk-history" className="space-y-3">
      <h2 id="bulk-history" className="text-xl font-semibold">
        {BULK_TEXT.historyHeading}
      </h2>
      <DataTable columns={Object.values(c)} label={BULK_TEXT.historyHeading}>
        {uploads.map((u) => (
          <tr key={u.id}>
            <td {...cell(c.sent, 'title')}>{formatDateTime(u.createdAt)}</td>
            <td {...cell(c.status)}>{BULK_TEXT.status[u.status]}</td>
            <td {...cell(c.rows)}>{u.rowsTotal}</td>
            <td {...cell(c.listed)}>{u.rowsListed}</td>
            <td {...cell(c.open, 'action')}>
              <button type="button" className="btn btn-sm" onClick={() => onShow(u.id)}>
                {BULK_TEXT.open}
                <span className="sr-only"> {formatDateTime(u.createdAt)}</span>
              </button>
            </td>
          </tr>
        ))}
      </DataTable>
    </section>
  );
}
