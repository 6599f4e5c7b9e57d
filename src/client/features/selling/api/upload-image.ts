import { ApiError } from '@client/lib/api-client';
import { getAccessToken } from '@client/lib/auth/session';
import { clientConfigQueryOptions } from '@client/lib/client-config';
import { postForm, UploadAbortedError } from '@client/lib/post-form';
import { type ClientConfig, calls } from '@shared/api';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';

/** Sends one file to the image host, reporting percent sent; answers the stored photo's URL. */
export type Upload = (
  file: File,
  onProgress: (percent: number) => void,
  signal: AbortSignal,
) => Promise<string>;

export { UploadAbortedError };

/**
 * Uploads a photo as multipart field `image` to the live image host (ours, or imgbb with its
 * key in the URL, as the spec describes), reporting progress; answers the photo's URL.
 */
export async function uploadImage(
  file: File,
  images: ClientConfig['images'],
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<string> {
  const form = new FormData();
  form.append('image', file);
  const body = await postForm(images.uploadUrl, form, {
    token: images.provider === 'embedded' ? getAccessToken() : null,
    onProgress,
    ...(signal ? { signal } : {}),
  });
  const ok = calls.uploadImage.response.safeParse(body);
  if (ok.success && ok.data.success) return ok.data.data.url;
  throw new ApiError(200, "The image host answered without the photo's address");
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
