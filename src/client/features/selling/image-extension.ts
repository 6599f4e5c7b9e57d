import { IMAGE_EXTENSIONS } from '@shared/constants';

/** Spec section 5: the extension is the part of the file name after the first dot. */
export function hasAcceptedExtension(fileName: string): boolean {
  const dot = fileName.indexOf('.');
  if (dot < 0) return false;
  return (IMAGE_EXTENSIONS as readonly string[]).includes(fileName.slice(dot + 1).toLowerCase());
}
