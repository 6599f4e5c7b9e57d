/**
 * A module kept out of a page's first scripts (issue 36): a dialog only a tap opens need not be
 * fetched and run while the page loads. It is fetched once the browser is idle after the page
 * is up, or when a tap needs it first, whichever comes first; the tap then waits for it, not
 * for a Suspense fallback.
 */
import { loadChunk } from './chunk-load';
import { toastError } from './feedback';

export type DeferredModule<T> = {
  /** Fetches the module once; resolves when it can be used. A failed fetch is tried again. */
  load: () => Promise<T>;
  /** The module, once loaded; undefined before. */
  current: () => T | undefined;
  /** Fetches it when the browser is next idle (at once where it cannot tell). */
  preloadWhenIdle: () => void;
};

export function deferredModule<T>(importer: () => Promise<T>): DeferredModule<T> {
  let module: T | undefined;
  let pending: Promise<T> | undefined;
  const load = () => {
    pending ??= loadChunk(importer).then(
      (loaded) => {
        module = loaded;
        return loaded;
      },
      (error: unknown) => {
        pending = undefined;
        throw error;
      },
    );
    return pending;
  };
  return {
    load,
    current: () => module,
    preloadWhenIdle: () => {
      if (module || pending || typeof window === 'undefined') return;
      const whenIdle = window.requestIdleCallback ?? ((run: () => void) => setTimeout(run, 1));
      whenIdle(() => void load().catch(() => undefined));
    },
  };
}

/**
 * Fetches `deferred` for a tap that needs it: true once it is here; false when it cannot be
 * fetched, having said `notLoaded` in a toast (the next tap tries again).
 */
export async function loadForTap<T>(
  deferred: DeferredModule<T>,
  notLoaded: string,
): Promise<boolean> {
  try {
    await deferred.load();
    return true;
  } catch (error) {
    toastError(error, notLoaded);
    return false;
  }
}
