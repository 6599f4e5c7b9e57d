import { ApiError } from '@client/lib/api-client';
import { getAccessToken } from '@client/lib/auth/session';
import { clientConfigQueryOptions } from '@client/lib/client-config';
import { type ClientConfig, calls, errorSchema } from '@shared/api';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';

/** Sends one file to the image host, reporting percent sent; answers the stored photo's URL. */
export type Upload = (
  file: File,
  onProgress: (percent: number) => void,
  signal: AbortSignal,
) => Promise<string>;

/** What a cancelled upload rejects with. */
export class UploadAbortedError extends Error {
  constructor() {
    super('The upload was cancelled');
    this.name = 'UploadAbortedError';
  }
}

/**
 * Uploads a photo as multipart field `image` to the live image host (ours, or imgbb with its
 * key in the URL, as the spec describes), reporting progress; answers the photo's URL.
 * XMLHttpRequest, because fetch cannot report upload progress. `signal` cancels it.
 */
export function uploadImage(
  file: File,
  images: ClientConfig['images'],
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<string> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new UploadAbortedError());
    const xhr = new XMLHttpRequest();
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.onabort = () => reject(new UploadAbortedError());
    xhr.open('POST', images.uploadUrl);
    const token = getAccessToken();
    if (images.provider === 'embedded' && token)
      xhr.setRequestHeader('authorization', `bearer ${token}`);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onerror = () => reject(new ApiError(0, 'Network Error'));
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // Not JSON: reported below by status.
      }
      const ok = calls.uploadImage.response.safeParse(body);
      if (xhr.status >= 200 && xhr.status < 300 && ok.success && ok.data.success)
        return resolve(ok.data.data.url);
      const error = errorSchema.safeParse(body);
      reject(
        new ApiError(
          xhr.status,
          error.success ? error.data.message : `Request failed with status code ${xhr.status}`,
        ),
      );
    };
    const form = new FormData();
    form.append('image', file);
    xhr.send(form);
  });
}

/** Uploads a photo to whichever image host is live (the client config says), as `uploadImage`. */
export function useUploadImage(): Upload {
  const queryClient = useQueryClient();
  return useCallback(
    async (file, onProgress, signal) => {
      const config = await queryClient.fetchQuery(clientConfigQueryOptions());
      return uploadImage(file, config.images, onProgress, signal);
    },
    [queryClient],
  );
}
