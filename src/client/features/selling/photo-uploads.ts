/**
 * A phone's photos while a seller edits them: the ones it has, and the files picked, each
 * uploaded through the image pipeline one at a time (a slow connection gives its whole width to
 * one photo, so the first picked is ready first) with its progress. Kept outside React, so
 * the uploads outlive the renders that show them; `usePhotoUploads` binds it to a component.
 */
import { ApiError } from '@client/lib/api-client';
import { PRODUCT_PHOTOS_MAX } from '@shared/constants';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { type Upload, UploadAbortedError } from './api/upload-image';

export type PhotoState = 'waiting' | 'uploading' | 'done' | 'failed';

export type PhotoItem = {
  /** Stable across moves: the list's React key. */
  key: string;
  /** The photo's URL once the image host stored it. */
  url: string | null;
  /** A picked file's own preview (a `blob:` URL) while this page shows it. */
  preview: string | null;
  state: PhotoState;
  /** Percent of the file sent, while it uploads. */
  progress: number;
  /** Why its upload failed. */
  error: string | null;
};

/** What happened to a photo after it was added, for the page to announce. */
export type PhotoEvent =
  | { kind: 'uploaded'; key: string }
  | { kind: 'failed'; key: string; message: string }
  | { kind: 'duplicate'; key: string };

let lastKey = 0;
const newKey = () => `photo-${++lastKey}`;

const messageOf = (error: unknown) =>
  error instanceof ApiError ? error.message : 'The photo could not be sent.';

const previewOf = (file: File) =>
  typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : null;

export class PhotoUploads {
  private items: readonly PhotoItem[];
  private readonly files = new Map<string, File>();
  private readonly uploads = new Map<string, AbortController>();
  private queue: Promise<void> = Promise.resolve();
  private readonly listeners = new Set<() => void>();
  /** Told when an upload ends, so the page can announce it. */
  onEvent: (event: PhotoEvent) => void = () => {};

  constructor(
    private readonly upload: Upload,
    urls: readonly string[] = [],
  ) {
    this.items = urls.map((url) => ({
      key: newKey(),
      url,
      preview: null,
      state: 'done',
      progress: 100,
      error: null,
    }));
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /** The photos in order, the cover first; a new array after every change. */
  getSnapshot = (): readonly PhotoItem[] => this.items;

  private set(items: readonly PhotoItem[]) {
    this.items = items;
    for (const listener of this.listeners) listener();
  }

  private patch(key: string, change: Partial<PhotoItem>) {
    this.set(this.items.map((item) => (item.key === key ? { ...item, ...change } : item)));
  }

  /** How many more photos the phone may have. */
  get room(): number {
    return PRODUCT_PHOTOS_MAX - this.items.length;
  }

  /**
   * Adds picked files at the end, as many as there is room for, and queues their uploads;
   * answers the keys added and how many files were left out.
   */
  add(files: readonly File[]): { added: string[]; leftOut: number } {
    const taken = files.slice(0, Math.max(0, this.room));
    const added = taken.map((file) => {
      const key = newKey();
      this.files.set(key, file);
      return {
        key,
        url: null,
        preview: previewOf(file),
        state: 'waiting' as const,
        progress: 0,
        error: null,
      };
    });
    this.set([...this.items, ...added]);
    for (const { key } of added) this.enqueue(key);
    return { added: added.map((a) => a.key), leftOut: files.length - taken.length };
  }

  /** Uploads a failed photo again. */
  retry(key: string) {
    if (this.items.find((i) => i.key === key)?.state !== 'failed') return;
    this.patch(key, { state: 'waiting', progress: 0, error: null });
    this.enqueue(key);
  }

  /** Takes a photo out, cancelling its upload. */
  remove(key: string) {
    const item = this.items.find((i) => i.key === key);
    if (!item) return;
    this.uploads.get(key)?.abort();
    this.forget(item);
    this.set(this.items.filter((i) => i.key !== key));
  }

  /** Moves a photo to `to` (0 is the cover), the others keeping their order. */
  move(key: string, to: number) {
    const from = this.items.findIndex((i) => i.key === key);
    if (from < 0 || to < 0 || to >= this.items.length || to === from) return;
    const items = [...this.items];
    const [item] = items.splice(from, 1);
    if (item) items.splice(to, 0, item);
    this.set(items);
  }

  /** Whether any photo is still on its way. */
  get busy(): boolean {
    return this.items.some((i) => i.state === 'waiting' || i.state === 'uploading');
  }

  /**
   * Waits for every queued upload; answers the photos' URLs in order, or null when one of them
   * failed (its item says why).
   */
  async settled(): Promise<string[] | null> {
    let queue: Promise<void>;
    do {
      queue = this.queue;
      await queue;
    } while (queue !== this.queue);
    const urls = this.items.map((i) => i.url);
    return urls.every((url): url is string => url !== null) ? urls : null;
  }

  /** Cancels what is uploading and lets go of the previews (the page is leaving). */
  dispose() {
    for (const controller of this.uploads.values()) controller.abort();
    for (const item of this.items) this.forget(item);
  }

  private forget(item: PhotoItem) {
    if (item.preview) URL.revokeObjectURL?.(item.preview);
    this.files.delete(item.key);
  }

  private enqueue(key: string) {
    this.queue = this.queue.then(() => this.send(key));
  }

  private async send(key: string) {
    const file = this.files.get(key);
    // Removed while it waited.
    if (!file || !this.items.some((i) => i.key === key)) return;
    const controller = new AbortController();
    this.uploads.set(key, controller);
    this.patch(key, { state: 'uploading', progress: 0 });
    try {
      const url = await this.upload(
        file,
        (progress) => this.patch(key, { progress }),
        controller.signal,
      );
      if (!this.items.some((i) => i.key === key)) return;
      // Our host names a photo by its content: the same photo picked twice comes back the same.
      if (this.items.some((i) => i.url === url)) {
        this.remove(key);
        this.onEvent({ kind: 'duplicate', key });
        return;
      }
      this.files.delete(key);
      this.patch(key, { state: 'done', url, progress: 100 });
      this.onEvent({ kind: 'uploaded', key });
    } catch (error) {
      if (error instanceof UploadAbortedError || !this.items.some((i) => i.key === key)) return;
      const message = messageOf(error);
      this.patch(key, { state: 'failed', error: message });
      this.onEvent({ kind: 'failed', key, message });
    } finally {
      this.uploads.delete(key);
    }
  }
}

/** A PhotoUploads for the component's life, starting with `urls`, and its photos as state. */
export function usePhotoUploads(upload: Upload, urls: readonly string[] = []) {
  const [uploads] = useState(() => new PhotoUploads(upload, urls));
  useEffect(() => () => uploads.dispose(), [uploads]);
  const items = useSyncExternalStore(uploads.subscribe, uploads.getSnapshot, uploads.getSnapshot);
  return { uploads, items };
}
