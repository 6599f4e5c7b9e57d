import { ApiError } from '@client/lib/api-client';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { type Upload, UploadAbortedError } from '../api/upload-image';
import { PhotoUploads, usePhotoUploads } from '../photo-uploads';
import { PhotoPicker, photosProblem } from './photo-picker';

/** An upload the test finishes by hand (`progress`, then `succeed` or `fail`); cancelled as a real one is. */
function controlledUploads() {
  const sent: {
    file: File;
    progress: (percent: number) => void;
    succeed: (url: string) => void;
    fail: (error: unknown) => void;
    signal: AbortSignal;
  }[] = [];
  const upload: Upload = (file, onProgress, signal) =>
    new Promise((resolve, reject) => {
      signal.addEventListener('abort', () => reject(new UploadAbortedError()));
      sent.push({ file, progress: onProgress, succeed: resolve, fail: reject, signal });
    });
  return { upload, sent };
}

const file = (name: string) => new File(['bytes'], name, { type: 'image/jpeg' });
const urlOf = (n: number) => `/images/${String(n).padStart(32, '0')}-640.webp`;
/** Lets queued uploads start (each waits for the one before it). */
const tick = () => act(async () => {});

function Picker({ upload, urls = [] }: { upload: Upload; urls?: string[] }) {
  const { uploads, items } = usePhotoUploads(upload, urls);
  const [refused, setRefused] = useState(false);
  return (
    <>
      <PhotoPicker
        id="photos"
        uploads={uploads}
        items={items}
        error={refused ? photosProblem(items, refused) : undefined}
        onPicked={setRefused}
        subject="Pixel 8"
      />
      <output data-testid="order">{items.map((i) => i.url ?? i.key).join(' ')}</output>
    </>
  );
}

const thumbnails = () => screen.getAllByRole('listitem');
const orderShown = () => screen.getByTestId('order').textContent?.split(' ') ?? [];

describe('PhotoPicker', () => {
  it('uploads the picked photos one at a time, each with its progress', async () => {
    const { upload, sent } = controlledUploads();
    render(<Picker upload={upload} />);
    await userEvent.upload(screen.getByLabelText('Photos'), [
      file('a.jpg'),
      file('b.png'),
      file('c.webp'),
    ]);
    await tick();
    expect(sent).toHaveLength(1);
    expect(thumbnails()).toHaveLength(3);
    act(() => sent[0]?.progress(40));
    const first = within(thumbnails()[0] as HTMLElement);
    expect(first.getByText('Uploading: 40%')).toBeInTheDocument();
    expect(first.getByRole('progressbar', { name: 'Uploading: 40%' })).toHaveAttribute(
      'value',
      '40',
    );
    expect(within(thumbnails()[1] as HTMLElement).getByText('Waiting to upload')).toBeVisible();

    await act(async () => sent[0]?.succeed(urlOf(1)));
    expect(sent).toHaveLength(2);
    // The picked file shows itself: no need to fetch it back.
    expect(screen.getByRole('img', { name: 'Pixel 8: Photo 1 of 3, the cover' })).toHaveAttribute(
      'src',
      expect.stringMatching(/^blob:/),
    );
    expect(screen.getByText('Photo 1 uploaded.')).toBeInTheDocument();
    await act(async () => sent[1]?.succeed(urlOf(2)));
    await act(async () => sent[2]?.succeed(urlOf(3)));
    expect(orderShown()).toEqual([urlOf(1), urlOf(2), urlOf(3)]);
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('makes a photo the cover, announces it and keeps focus on that photo', async () => {
    render(<Picker upload={vi.fn()} urls={[urlOf(1), urlOf(2), urlOf(3)]} />);
    expect(within(thumbnails()[0] as HTMLElement).getByText('Cover')).toBeInTheDocument();
    expect(
      within(thumbnails()[0] as HTMLElement).queryByRole('button', { name: /Make cover/ }),
    ).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Make cover (photo 3)' }));
    expect(orderShown()).toEqual([urlOf(3), urlOf(1), urlOf(2)]);
    expect(screen.getByText('Moved to position 1 of 3: it is the cover now.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Move photo 1 right' })).toHaveFocus();
    expect(screen.getByRole('button', { name: 'Move photo 1 left' })).toBeDisabled();
  });

  it('moves photos from the keyboard, focus following the photo', async () => {
    render(<Picker upload={vi.fn()} urls={[urlOf(1), urlOf(2), urlOf(3)]} />);
    screen.getByRole('button', { name: 'Move photo 1 right' }).focus();
    await userEvent.keyboard('{Enter}');
    expect(orderShown()).toEqual([urlOf(2), urlOf(1), urlOf(3)]);
    expect(screen.getByRole('button', { name: 'Move photo 2 right' })).toHaveFocus();
    await userEvent.keyboard(' ');
    expect(orderShown()).toEqual([urlOf(2), urlOf(3), urlOf(1)]);
    // At the end its right button is disabled: focus moves to its left one.
    expect(screen.getByRole('button', { name: 'Move photo 3 left' })).toHaveFocus();
    expect(screen.getByText('Moved to position 3 of 3.')).toBeInTheDocument();
    await userEvent.keyboard('{Enter}');
    expect(orderShown()).toEqual([urlOf(2), urlOf(1), urlOf(3)]);
    expect(screen.getByRole('button', { name: 'Move photo 2 left' })).toHaveFocus();
  });

  it('removes a photo, says how many are left, and gives focus to the next one', async () => {
    render(<Picker upload={vi.fn()} urls={[urlOf(1), urlOf(2), urlOf(3)]} />);
    await userEvent.click(screen.getByRole('button', { name: 'Remove (photo 2)' }));
    expect(orderShown()).toEqual([urlOf(1), urlOf(3)]);
    expect(screen.getByText('Photo removed, 2 left.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Remove (photo 2)' })).toHaveFocus();
    await userEvent.click(screen.getByRole('button', { name: 'Remove (photo 2)' }));
    await userEvent.click(screen.getByRole('button', { name: 'Remove (photo 1)' }));
    expect(screen.queryAllByRole('listitem')).toHaveLength(0);
    expect(screen.getByLabelText('Photos')).toHaveFocus();
  });

  it("refuses a pick with one file of another extension, with the spec's message, and uploads nothing", async () => {
    const { upload, sent } = controlledUploads();
    render(<Picker upload={upload} />);
    await userEvent.upload(screen.getByLabelText('Photos'), [file('a.jpg'), file('b.gif')], {
      applyAccept: false,
    });
    await tick();
    expect(screen.getByText('Your image formate should be jpg, jpeg, png, webp')).toBeVisible();
    expect(sent).toHaveLength(0);
    expect(screen.queryAllByRole('listitem')).toHaveLength(0);
    await userEvent.upload(screen.getByLabelText(/^Photos/), [file('a.jpg')]);
    expect(
      screen.queryByText('Your image formate should be jpg, jpeg, png, webp'),
    ).not.toBeInTheDocument();
  });

  it('takes at most six photos, and no more picks once it has them', async () => {
    const { upload, sent } = controlledUploads();
    render(<Picker upload={upload} urls={[urlOf(1), urlOf(2)]} />);
    await userEvent.upload(
      screen.getByLabelText('Photos'),
      Array.from({ length: 5 }, (_, i) => file(`p${i}.jpg`)),
    );
    expect(thumbnails()).toHaveLength(6);
    expect(screen.getByLabelText('Photos')).toBeDisabled();
    // Said at the field, where the seller looks, not in a toast that goes.
    expect(screen.getByText('A phone has at most 6 photos: 1 photo was left out.')).toHaveAttribute(
      'role',
      'status',
    );
    await tick();
    expect(sent.map((s) => s.file.name)).toEqual(['p0.jpg']);
  });

  it('shows why an upload failed and tries it again', async () => {
    const { upload, sent } = controlledUploads();
    render(<Picker upload={upload} />);
    await userEvent.upload(screen.getByLabelText('Photos'), [file('a.jpg')]);
    await tick();
    await act(async () =>
      sent[0]?.fail(new ApiError(400, 'image: the photo is larger than 10 MB')),
    );
    expect(
      screen.getByText('Did not upload: image: the photo is larger than 10 MB'),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Try again (photo 1)' }));
    await tick();
    expect(sent).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Remove (photo 1)' })).toHaveFocus();
    await act(async () => sent[1]?.succeed(urlOf(1)));
    expect(orderShown()).toEqual([urlOf(1)]);
  });
});

describe('PhotoUploads', () => {
  it('answers the URLs in order once every upload is done, or null when one failed', async () => {
    const { upload, sent } = controlledUploads();
    const uploads = new PhotoUploads(upload, [urlOf(1)]);
    uploads.add([file('a.jpg'), file('b.jpg')]);
    const settled = uploads.settled();
    await Promise.resolve();
    sent[0]?.succeed(urlOf(2));
    await vi.waitFor(() => expect(sent).toHaveLength(2));
    sent[1]?.succeed(urlOf(3));
    expect(await settled).toEqual([urlOf(1), urlOf(2), urlOf(3)]);

    uploads.add([file('c.jpg')]);
    await vi.waitFor(() => expect(sent).toHaveLength(3));
    sent[2]?.fail(new ApiError(0, 'Network Error'));
    expect(await uploads.settled()).toBeNull();
    expect(photosProblem(uploads.getSnapshot(), false)).toBe(
      'A photo did not upload: try it again or remove it.',
    );
  });

  it('cancels the upload of a photo removed while it uploads, and drops a photo added twice', async () => {
    const { upload, sent } = controlledUploads();
    const uploads = new PhotoUploads(upload, [urlOf(1)]);
    const events: string[] = [];
    uploads.onEvent = (e) => events.push(e.kind);
    const {
      added: [key],
    } = uploads.add([file('a.jpg'), file('again.jpg')]);
    await vi.waitFor(() => expect(sent).toHaveLength(1));
    uploads.remove(key as string);
    expect(sent[0]?.signal.aborted).toBe(true);
    await vi.waitFor(() => expect(sent).toHaveLength(2));
    sent[1]?.succeed(urlOf(1));
    expect(await uploads.settled()).toEqual([urlOf(1)]);
    expect(events).toEqual(['duplicate']);
  });

  it.each([
    [[], false, 'Required Field'],
    [[], true, 'Your image formate should be jpg, jpeg, png, webp'],
  ] as const)('photosProblem(%j, %s) is %s', (items, refused, message) => {
    expect(photosProblem(items, refused)).toBe(message);
  });
});
