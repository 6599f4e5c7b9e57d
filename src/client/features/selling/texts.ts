/**
 * Selling's texts beyond the spec's (those stay in @shared/texts): a phone's photos. Kept with the
 * feature so that no public page's first load carries them.
 */
import { formatCount } from '@client/lib/format';
import { PRODUCT_PHOTOS_MAX } from '@shared/constants';
import { UNDER_REVIEW } from '@shared/risk-names';

/** A photo as the seller's controls and announcements name it: by its place in the order. */
const photo = (position: number) => `photo ${position}`;

export const SELLING_TEXT = {
  photosLabel: 'Photos',
  photosHint: `Up to ${PRODUCT_PHOTOS_MAX} photos (jpg, jpeg, png or webp). The first is the cover; reorder them with the arrows.`,
  photoList: 'The photos in order, the cover first',
  cover: 'Cover',
  makeCover: 'Make cover',
  moveLeft: (position: number) => `Move ${photo(position)} left`,
  moveRight: (position: number) => `Move ${photo(position)} right`,
  remove: 'Remove',
  retry: 'Try again',
  /** A button's name for assistive technology: what it says, and the photo it acts on. */
  onPhoto: (action: string, position: number) => `${action} (${photo(position)})`,
  thumbnail: (position: number, count: number) =>
    position === 1 ? `Photo 1 of ${count}, the cover` : `Photo ${position} of ${count}`,
  waiting: 'Waiting to upload',
  uploading: (percent: number) => `Uploading: ${percent}%`,
  failed: (message: string) => `Did not upload: ${message}`,

  tooMany: (leftOut: number) =>
    `A phone has at most ${PRODUCT_PHOTOS_MAX} photos: ${leftOut === 1 ? '1 photo was' : `${leftOut} photos were`} left out.`,
  notUploaded: 'A photo did not upload: try it again or remove it.',
  duplicate: 'That photo is there already.',

  announce: {
    added: (count: number) =>
      count === 1 ? '1 photo added, uploading.' : `${count} photos added, uploading.`,
    uploaded: (position: number) => `Photo ${position} uploaded.`,
    failed: (position: number, message: string) => `Photo ${position} did not upload: ${message}`,
    moved: (position: number, count: number) =>
      position === 1
        ? `Moved to position 1 of ${count}: it is the cover now.`
        : `Moved to position ${position} of ${count}.`,
    removed: (left: number) =>
      left === 1 ? 'Photo removed, 1 left.' : `Photo removed, ${left} left.`,
  },

  /** The photos page of a listed phone. */
  photosTitle: (model: string) => `Photos of ${model}`,
  photosAction: 'Photos',
  save: 'Save photos',
  saved: 'Photos saved.',
  back: 'Back to My Products',
  soldKeepsPhotos: 'This phone is sold: it keeps the photos its buyer saw.',

  /** Issue 19: the form's new fields, editing, withdrawing, advertising. */
  imeiHint: 'Dial *#06# on the phone to see it',
  imeiShown: (last4: string) => `IMEI ending in ${last4} (it cannot be changed)`,
  batteryHealthHint: 'Optional: from 50 to 100, as the phone shows in its battery settings',
  pricesHint: 'In dollars; 1,200 or $1,200.50 are fine',
  timeUsedHint: 'Months, or years such as 1.5 years',
  fixFields: 'Some fields need a change: see the messages beside them.',
  editTitle: (model: string) => `Edit ${model}`,
  editAction: 'Edit',
  saveChanges: 'Save changes',
  changesSaved: 'Changes saved.',
  editPhotos: 'Change its photos',
  soldCannotEdit:
    'This phone is sold: its buyer paid for it as it was listed, so it can no longer be edited.',
  withdrawnCannotEdit: 'This phone is withdrawn: relist it in My Products to edit it.',
  status: { available: 'Available', sold: 'Sold', withdrawn: 'Withdrawn', held: UNDER_REVIEW },
  advertised: 'Advertised',
  stopAdvertising: 'Stop advertising',
  stoppedAdvertising: 'This phone is no longer advertised.',
  confirmStopAdvertising: 'Stop advertising this phone? It leaves the home page.',
  withdraw: 'Withdraw',
  withdrawn: 'The phone is withdrawn: buyers no longer see it.',
  confirmWithdraw: 'Withdraw this phone? Buyers will no longer see it until you relist it.',
  relist: 'Relist',
  relisted: 'The phone is listed again.',
  imeiBlocked: 'IMEI blocked: reported stolen, it cannot be listed.',

  /** Issue 30: what the seller receives of the resale price, as they type it. */
  youReceive: (net: string, fee: string) => `You receive ${net} after the ${fee} fee`,
  minimumFee: (fee: string) => `${fee} minimum`,
} as const;

/** Under the resale price: how many buyers' saved searches the phone would match (issue 33). */
export const WAITING_BUYERS_TEXT = {
  buyers: (count: number) =>
    count === 1
      ? '1 buyer is looking for a phone like this'
      : `${formatCount(count)} buyers are looking for a phone like this`,
  none: 'No saved searches match yet',
} as const;
