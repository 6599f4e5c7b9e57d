import { BLOG_PREVIEW_LENGTH } from '@shared/constants';

/** The first 120 characters of an answer (spec section 9). */
export const previewOf = (answer: string): string => answer.slice(0, BLOG_PREVIEW_LENGTH);
