import { describe, expect, it, vi } from 'vitest';
import { deferredModule } from './deferred-module';

describe('deferredModule', () => {
  it('fetches once, however often it is asked, and keeps the module', async () => {
    const importer = vi.fn(async () => ({ answer: 42 }));
    const deferred = deferredModule(importer);
    expect(deferred.current()).toBeUndefined();
    const [a, b] = await Promise.all([deferred.load(), deferred.load()]);
    expect(a).toBe(b);
    expect(deferred.current()).toEqual({ answer: 42 });
    deferred.preloadWhenIdle();
    expect(importer).toHaveBeenCalledTimes(1);
  });

  it('fails as a chunk load error, and fetches again on the next ask', async () => {
    const importer = vi
      .fn<() => Promise<{ answer: number }>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValueOnce({ answer: 1 });
    const deferred = deferredModule(importer);
    await expect(deferred.load()).rejects.toMatchObject({ name: 'ChunkLoadError' });
    expect(deferred.current()).toBeUndefined();
    await expect(deferred.load()).resolves.toEqual({ answer: 1 });
    expect(importer).toHaveBeenCalledTimes(2);
  });

  it('fetches when the browser is idle, not before', async () => {
    let idle: (() => void) | undefined;
    vi.stubGlobal('requestIdleCallback', (run: () => void) => {
      idle = run;
      return 1;
    });
    try {
      const importer = vi.fn(async () => ({ answer: 7 }));
      const deferred = deferredModule(importer);
      deferred.preloadWhenIdle();
      expect(importer).not.toHaveBeenCalled();
      idle?.();
      await vi.waitFor(() => expect(deferred.current()).toEqual({ answer: 7 }));
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
