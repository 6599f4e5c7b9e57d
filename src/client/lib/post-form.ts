import { errorSchema } from '@shared/api';
import { ApiError } from './api-client';

/** What a cancelled form upload rejects with. */
export class UploadAbortedError extends Error {
  constructor() {
    super('The upload was cancelled');
    this.name = 'UploadAbortedError';
  }
}

/**
 * Posts multipart `form` to `url`, reporting the percent sent, and answers the parsed JSON body of
 * a 2xx answer; any other answer rejects with an ApiError carrying the server's message.
 * XMLHttpRequest, because fetch cannot report upload progress. `signal` cancels it.
 */
export function postForm(
  url: string,
  form: FormData,
  {
    token,
    onProgress,
    signal,
  }: { token?: string | null; onProgress?: (percent: number) => void; signal?: AbortSignal },
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new UploadAbortedError());
    const xhr = new XMLHttpRequest();
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.onabort = () => reject(new UploadAbortedError());
    xhr.open('POST', url);
    if (token) xhr.setRequestHeader('authorization', `bearer ${token}`);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress?.(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onerror = () => reject(new ApiError(0, 'Network Error'));
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // Not JSON: reported below by status.
      }
      if (xhr.status >= 200 && xhr.status < 300) return resolve(body);
      const error = errorSchema.safeParse(body);
      reject(
        new ApiError(
          xhr.status,
          error.success ? error.data.message : `Request failed with status code ${xhr.status}`,
        ),
      );
    };
    xhr.send(form);
  });
}

/**
 * Hands `text` to the browser as a file to save. For answers a plain link cannot fetch (they
 * need the bearer token): the answer is fetched, then saved under the server's file name.
 */
export function saveAsFile(text: string, fileName: string, type = 'text/csv'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has started the download; revoking at once can cancel it in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
