/** Responsive image sources for URLs issued by our image host (`/images/<hash>-<width>.webp`). */
import { IMAGE_WIDTHS } from './constants';

const OWN_IMAGE = /^(\/images\/[0-9a-f]+)-\d+\.webp$/;

/** A `srcset` listing every stored width, or undefined for an image from another host. */
export function srcSetOf(url: string): string | undefined {
  const match = OWN_IMAGE.exec(url);
  if (!match) return undefined;
  return IMAGE_WIDTHS.map((w) => `${match[1]}-${w}.webp ${w}w`).join(', ');
}
