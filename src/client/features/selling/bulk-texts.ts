/** Bulk listing's texts (issue 35): "Add many" on My Products and its page. */
import { formatCount } from '@client/lib/format';
import { BULK_MAX_ROWS, BULK_PHOTO_SEPARATOR } from '@shared/bulk';

const phones = (n: number) => (n === 1 ? '1 phone' : `${formatCount(n)} phones`);

export const BULK_TEXT = {
  addMany: 'Add many',
  title: 'Add many phones',
  intro: `List up to ${BULK_MAX_ROWS} phones at once: one phone a row of the template, and their photos in one ZIP file.`,
  templateHeading: '1. Fill in the template',
  download: 'Download the template (CSV)',
  templateHint: `Its columns are Add A Product's fields. In Photos, write the file names of the phone's photos in the ZIP, separated by ${BULK_PHOTO_SEPARATOR}, the cover first. Save it as "CSV UTF-8".`,
  uploadHeading: '2. Upload the CSV and the photos',
  csvLabel: 'CSV file',
  zipLabel: 'ZIP file of the photos',
  upload: 'Upload',
  sending: (percent: number) => `Sending the files: ${percent}%`,
  chooseBoth: 'Choose the CSV file and the ZIP file of the photos.',
  leaveHint:
    'You can leave this page: the upload goes on, and My Products shows the phones once they are listed.',
  readingPhotos: (done: number, total: number) => `Reading the photos: ${done} of ${total}`,
  listing: (done: number, total: number) => `Listing: ${done} of ${total}`,
  ready: (ready: number, total: number) =>
    `${ready} of ${total} ${total === 1 ? 'row' : 'rows'} can be listed.`,
  fixHint:
    'Fix the rows with problems in your file and upload it again: a phone listed now is not listed twice.',
  list: (n: number) => `List ${phones(n)}`,
  listed: (n: number) => `${phones(n)} listed.`,
  rowsCaption: 'The rows of your file',
  columns: { row: 'Row', model: 'Model name', result: 'Result' },
  rowReady: 'Ready to list',
  rowListed: 'Listed',
  rowNotListed: 'Not listed',
  historyHeading: 'Your uploads',
  historyColumns: {
    sent: 'Sent',
    status: 'Status',
    rows: 'Rows',
    listed: 'Listed',
    open: 'Details',
  },
  open: 'See',
  status: {
    photos: 'Reading photos',
    preview: 'Waiting for you',
    listing: 'Listing',
    done: 'Done',
    refused: 'Refused',
    expired: 'Expired',
  },
  backToProducts: 'Back to My Products',
} as const;
