import { call } from '@client/lib/api-client';
import { getAccessToken } from '@client/lib/auth/session';
import { postForm, saveAsFile } from '@client/lib/post-form';
import { queryRoots } from '@client/lib/query-keys';
import { API_BASE, callRoutes } from '@shared/call-routes';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';

/** How often the page asks how far an upload has come while the server works on it. */
const POLL_MS = 1_000;

/** Under the products root: listing an upload's rows changes the seller's phones. */
const ROOT = queryRoots.products;
const BULK = 'bulk-uploads';

/** The seller's latest uploads (issue 35). Under the products root: listing changes them. */
export const bulkUploadsQueryOptions = () =>
  queryOptions({ queryKey: [...ROOT, BULK], queryFn: () => call('bulkUploads') });

/** One upload and its rows, asked again every second while its photos are read or rows listed. */
export const bulkUploadQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...ROOT, BULK, id],
    queryFn: () => call('bulkUpload', { params: { id } }),
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status === 'photos' || status === 'listing' ? POLL_MS : false;
    },
  });

/** The template, saved by the browser as a file. */
export async function downloadBulkTemplate(): Promise<void> {
  saveAsFile(await call('bulkTemplate'), 'phones-template.csv');
}

/** Sends the CSV and the ZIP, reporting the percent sent; answers the new upload's id. */
export async function sendBulkUpload(
  files: { csv: File; zip: File },
  onProgress: (percent: number) => void,
): Promise<string> {
  const form = new FormData();
  form.append('csv', files.csv);
  form.append('zip', files.zip);
  const body = (await postForm(`${API_BASE}${callRoutes.startBulkUpload.path}`, form, {
    token: getAccessToken(),
    onProgress,
  })) as { id: string };
  return body.id;
}

/** Lists the rows of a preview that have no problem. */
export function useListBulkUpload() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call('listBulkUpload', { params: { id } }),
    onSuccess: (_data, id) => queryClient.invalidateQueries({ queryKey: [...ROOT, BULK, id] }),
  });
}
