/** Script chunks that fail to load, or take longer than the spec's 120 s, fail as a ChunkLoadError. */
import { CHUNK_LOAD_TIMEOUT_MS } from '@shared/constants';

export class ChunkLoadError extends Error {
  constructor(cause?: unknown) {
    super('Loading chunk failed.', { cause });
    this.name = 'ChunkLoadError';
  }
}

export function loadChunk<T>(
  load: () => Promise<T>,
  timeoutMs = CHUNK_LOAD_TIMEOUT_MS,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError('timeout')), timeoutMs);
    load().then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(new ChunkLoadError(error));
      },
    );
  });
}

export const isChunkLoadError = (error: unknown): boolean =>
  error instanceof Error && error.name === 'ChunkLoadError';
