import { srcSetOf } from '@shared/images';
import { type KeyboardEvent, useRef, useState } from 'react';
import { CATALOG_TEXT } from '../texts';

type PhotoGalleryProps = {
  /** The phone's photos in order, the cover first. */
  photos: string[];
  /** What the photos show, for their text alternative: 'iPhone 14 Pro in Gold'. */
  subject: string;
  /** Laid over the main photo's corner (the phone's status). */
  children?: React.ReactNode;
  className?: string;
};

/**
 * A phone's photos: one large, thumbnails to switch it. Before the app runs (server-rendered) it
 * shows the cover, the page's largest image, loaded first and at a fixed 4:3 box so nothing
 * moves when it or another photo arrives. Thumbnails are buttons (Tab, Enter or Space, and the
 * arrow keys move between them); previous and next buttons sit on the photo for a phone's screen.
 */
export function PhotoGallery({ photos, subject, children, className = '' }: PhotoGalleryProps) {
  const [shown, setShown] = useState(0);
  const thumbnails = useRef<(HTMLButtonElement | null)[]>([]);
  const count = photos.length;
  const photo = photos[shown] ?? photos[0] ?? '';
  const show = (index: number, focus = false) => {
    const next = (index + count) % count;
    setShown(next);
    if (focus) thumbnails.current[next]?.focus();
  };
  const onThumbnailKey = (event: KeyboardEvent, index: number) => {
    const step = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 }[event.key];
    if (step === undefined) return;
    event.preventDefault();
    show(index + step, true);
  };

  return (
    <section aria-label={CATALOG_TEXT.photos} className={`min-w-0 space-y-3 ${className}`}>
      <figure className="relative overflow-hidden rounded-box bg-base-200">
        <img
          src={photo}
          srcSet={srcSetOf(photo)}
          sizes="(min-width: 1152px) 640px, (min-width: 1024px) 55vw, 100vw"
          alt={
            count > 1
              ? `${subject}, ${CATALOG_TEXT.photoOf(shown + 1, count).toLowerCase()}`
              : subject
          }
          width={800}
          height={600}
          loading="eager"
          fetchPriority={shown === 0 ? 'high' : 'auto'}
          className="aspect-[4/3] w-full object-contain"
        />
        {children}
        {count > 1 && (
          <>
            <button
              type="button"
              className="btn btn-circle btn-sm absolute top-1/2 left-3 -translate-y-1/2 opacity-90"
              onClick={() => show(shown - 1)}
            >
              <span aria-hidden="true">❮</span>
              <span className="sr-only">{CATALOG_TEXT.previousPhoto}</span>
            </button>
            <button
              type="button"
              className="btn btn-circle btn-sm absolute top-1/2 right-3 -translate-y-1/2 opacity-90"
              onClick={() => show(shown + 1)}
            >
              <span aria-hidden="true">❯</span>
              <span className="sr-only">{CATALOG_TEXT.nextPhoto}</span>
            </button>
            <span className="badge badge-neutral absolute right-3 bottom-3" aria-hidden="true">
              {shown + 1} / {count}
            </span>
          </>
        )}
      </figure>
      {count > 1 && (
        <>
          <p className="sr-only" aria-live="polite">
            {CATALOG_TEXT.photoOf(shown + 1, count)}
          </p>
          <ul className="flex gap-2 overflow-x-auto p-1">
            {photos.map((url, i) => (
              <li key={url} className="shrink-0">
                <button
                  type="button"
                  ref={(button) => {
                    thumbnails.current[i] = button;
                  }}
                  aria-pressed={i === shown}
                  onClick={() => show(i)}
                  onKeyDown={(event) => onThumbnailKey(event, i)}
                  className={`block overflow-hidden rounded-lg bg-base-200 ring-offset-2 ring-offset-base-100 focus-visible:outline-2 focus-visible:outline-primary ${i === shown ? 'ring-2 ring-primary' : 'opacity-75 hover:opacity-100'}`}
                >
                  <img
                    src={url}
                    srcSet={srcSetOf(url)}
                    sizes="96px"
                    alt=""
                    width={96}
                    height={72}
                    loading="lazy"
                    decoding="async"
                    className="aspect-[4/3] w-20 object-cover sm:w-24"
                  />
                  <span className="sr-only">{CATALOG_TEXT.showPhoto(i + 1, count)}</span>
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
