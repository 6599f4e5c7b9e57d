/**
 * A phone's photos, cover first: pick several files (each uploads at once, with its progress),
 * see them in order, make one the cover, move one left or right, remove one. Every control is a
 * button named for the photo it acts on; each change is announced, and focus stays with the
 * photo that moved.
 */
import { Field } from '@client/components/ui/field';
import { srcSetOf } from '@shared/images';
import { TEXT } from '@shared/texts';
import { type ChangeEvent, useEffect, useId, useRef, useState } from 'react';
import { hasAcceptedExtension } from '../image-extension';
import type { PhotoItem, PhotoUploads } from '../photo-uploads';
import { SELLING_TEXT } from '../texts';

type Control = 'cover' | 'left' | 'right' | 'remove' | 'retry';

type PhotoPickerProps = {
  id: string;
  uploads: PhotoUploads;
  items: readonly PhotoItem[];
  /** The field's message: the spec's 'Required Field' or image format message, or a failed upload. */
  error?: string | undefined;
  /** Told after every pick whether the spec's extension rule refused it (nothing is uploaded then). */
  onPicked?: (refused: boolean) => void;
  /** The phone's name, for the thumbnails' text when it is known. */
  subject?: string;
  disabled?: boolean;
};

/** Whether a phone's photos can be sent: the message to show, or undefined. */
export function photosProblem(items: readonly PhotoItem[], refused: boolean): string | undefined {
  if (refused) return TEXT.validation.imageFormat;
  if (items.length === 0) return TEXT.validation.requiredField;
  if (items.some((i) => i.state === 'failed')) return SELLING_TEXT.notUploaded;
  return undefined;
}

export function PhotoPicker({
  id,
  uploads,
  items,
  error,
  onPicked,
  subject,
  disabled = false,
}: PhotoPickerProps) {
  const hintId = useId();
  const [announcement, setAnnouncement] = useState('');
  /** What the last pick left out (over the limit, or a photo there already), shown at the field. */
  const [notice, setNotice] = useState('');
  const controls = useRef(new Map<string, HTMLElement>());
  /** The control to focus once the list has re-rendered. */
  const focusNext = useRef<string | null>(null);
  const inputRef = useRef<HTMLInputElement | null>(null);

  useEffect(() => {
    if (!focusNext.current) return;
    const target = controls.current.get(focusNext.current) ?? inputRef.current;
    focusNext.current = null;
    target?.focus();
  });

  useEffect(() => {
    const positionOf = (key: string) => uploads.getSnapshot().findIndex((i) => i.key === key) + 1;
    uploads.onEvent = (event) => {
      if (event.kind === 'uploaded')
        setAnnouncement(SELLING_TEXT.announce.uploaded(positionOf(event.key)));
      if (event.kind === 'failed')
        setAnnouncement(SELLING_TEXT.announce.failed(positionOf(event.key), event.message));
      if (event.kind === 'duplicate') setNotice(SELLING_TEXT.duplicate);
    };
    return () => {
      uploads.onEvent = () => {};
    };
  }, [uploads]);

  const controlKey = (item: PhotoItem, control: Control) => `${item.key}:${control}`;
  const refOf = (item: PhotoItem, control: Control) => (el: HTMLElement | null) => {
    if (el) controls.current.set(controlKey(item, control), el);
    else controls.current.delete(controlKey(item, control));
  };

  const pick = (event: ChangeEvent<HTMLInputElement>) => {
    const files = [...(event.target.files ?? [])];
    event.target.value = '';
    if (files.length === 0) return;
    // The spec's rule, for every file picked: one wrong extension and nothing is uploaded.
    if (!files.every((f) => hasAcceptedExtension(f.name))) {
      onPicked?.(true);
      return;
    }
    const { added, leftOut } = uploads.add(files);
    onPicked?.(false);
    setNotice(leftOut > 0 ? SELLING_TEXT.tooMany(leftOut) : '');
    if (added.length > 0) setAnnouncement(SELLING_TEXT.announce.added(added.length));
  };

  const move = (item: PhotoItem, to: number, control: Control) => {
    uploads.move(item.key, to);
    const count = uploads.getSnapshot().length;
    // A move button at the end it reached is disabled: focus goes to the one that still moves.
    const stays =
      control === 'cover' || (control === 'left' && to === 0)
        ? 'right'
        : control === 'right' && to === count - 1
          ? 'left'
          : control;
    focusNext.current = count > 1 ? controlKey(item, stays) : controlKey(item, 'remove');
    setAnnouncement(SELLING_TEXT.announce.moved(to + 1, count));
  };

  const remove = (item: PhotoItem, index: number) => {
    uploads.remove(item.key);
    const left = uploads.getSnapshot();
    const neighbour = left[Math.min(index, left.length - 1)];
    focusNext.current = neighbour ? controlKey(neighbour, 'remove') : 'input';
    setAnnouncement(SELLING_TEXT.announce.removed(left.length));
  };

  const room = uploads.room;
  const count = items.length;
  const { onPhoto } = SELLING_TEXT;

  return (
    <Field id={id} label={SELLING_TEXT.photosLabel} error={error} errorAt="label">
      <p id={hintId} className="mb-2 text-sm text-base-content/80">
        {SELLING_TEXT.photosHint}
      </p>
      <input
        ref={inputRef}
        id={id}
        type="file"
        multiple
        accept=".jpg,.jpeg,.png,.webp,image/jpeg,image/png,image/webp"
        // The browser's own "No file chosen" beside photos listed below would contradict them:
        // once there are photos, only its button shows.
        className={`file-input w-full ${count > 0 ? 'text-transparent' : ''}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error ${hintId}` : hintId}
        disabled={disabled || room <= 0}
        onChange={pick}
      />
      {/* A toast would be gone before the seller looked down at the photos it is about. */}
      <p role="status" className={notice ? 'mt-2 text-sm' : 'sr-only'}>
        {notice}
      </p>
      {count > 0 && (
        <ol
          aria-label={SELLING_TEXT.photoList}
          className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-3"
        >
          {items.map((item, index) => {
            const position = index + 1;
            const src = item.preview ?? item.url;
            const statusId = `${id}-${item.key}-status`;
            const alt = `${subject ? `${subject}: ` : ''}${SELLING_TEXT.thumbnail(position, count)}`;
            return (
              <li
                key={item.key}
                className="flex flex-col overflow-hidden rounded-box bg-base-100 ring-1 ring-base-300"
              >
                <figure className="relative bg-base-200">
                  {src ? (
                    <img
                      src={src}
                      srcSet={item.preview ? undefined : srcSetOf(src)}
                      sizes="(min-width: 640px) 240px, 45vw"
                      alt={alt}
                      width={320}
                      height={240}
                      className="aspect-[4/3] w-full object-cover"
                    />
                  ) : (
                    <div className="grid aspect-[4/3] w-full place-items-center p-2 text-center text-sm">
                      {alt}
                    </div>
                  )}
                  {index === 0 && (
                    <span className="badge badge-primary absolute top-2 left-2 font-semibold">
                      {SELLING_TEXT.cover}
                    </span>
                  )}
                </figure>
                <div className="flex flex-1 flex-col gap-2 p-2">
                  <PhotoStatus item={item} statusId={statusId} />
                  <div className="flex flex-wrap items-center gap-1">
                    <button
                      ref={refOf(item, 'left')}
                      type="button"
                      className="btn btn-square btn-sm"
                      aria-label={SELLING_TEXT.moveLeft(position)}
                      disabled={disabled || index === 0}
                      onClick={() => move(item, index - 1, 'left')}
                    >
                      <span aria-hidden="true">←</span>
                    </button>
                    <button
                      ref={refOf(item, 'right')}
                      type="button"
                      className="btn btn-square btn-sm"
                      aria-label={SELLING_TEXT.moveRight(position)}
                      disabled={disabled || index === count - 1}
                      onClick={() => move(item, index + 1, 'right')}
                    >
                      <span aria-hidden="true">→</span>
                    </button>
                    <button
                      ref={refOf(item, 'remove')}
                      type="button"
                      className="btn btn-outline btn-error btn-sm ml-auto"
                      aria-label={onPhoto(SELLING_TEXT.remove, position)}
                      disabled={disabled}
                      onClick={() => remove(item, index)}
                    >
                      {SELLING_TEXT.remove}
                    </button>
                  </div>
                  {item.state === 'failed' && (
                    <button
                      ref={refOf(item, 'retry')}
                      type="button"
                      className="btn btn-sm btn-block"
                      aria-label={onPhoto(SELLING_TEXT.retry, position)}
                      disabled={disabled}
                      onClick={() => {
                        // The button goes while it uploads again: focus stays with the photo.
                        focusNext.current = controlKey(item, 'remove');
                        uploads.retry(item.key);
                      }}
                    >
                      {SELLING_TEXT.retry}
                    </button>
                  )}
                  {index > 0 && (
                    <button
                      ref={refOf(item, 'cover')}
                      type="button"
                      className="btn btn-sm btn-block"
                      aria-label={onPhoto(SELLING_TEXT.makeCover, position)}
                      disabled={disabled}
                      onClick={() => move(item, 0, 'cover')}
                    >
                      {SELLING_TEXT.makeCover}
                    </button>
                  )}
                </div>
              </li>
            );
          })}
        </ol>
      )}
      <p aria-live="polite" className="sr-only">
        {announcement}
      </p>
    </Field>
  );
}

/** Where a photo's upload is: a progress bar while it goes, the reason if it failed. */
function PhotoStatus({ item, statusId }: { item: PhotoItem; statusId: string }) {
  if (item.state === 'done') return null;
  if (item.state === 'failed')
    return <p className="text-sm text-error">{SELLING_TEXT.failed(item.error ?? '')}</p>;
  return (
    <div>
      <p id={statusId} className="text-xs">
        {item.state === 'waiting' ? SELLING_TEXT.waiting : SELLING_TEXT.uploading(item.progress)}
      </p>
      <progress
        className="progress progress-primary w-full"
        aria-labelledby={statusId}
        value={item.state === 'waiting' ? 0 : item.progress}
        max={100}
      />
    </div>
  );
}
