import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { PhotoGallery } from './photo-gallery';

const photos = [
  '/images/00000000000000000000000000000001-640.webp',
  '/images/00000000000000000000000000000002-640.webp',
  '/images/00000000000000000000000000000003-640.webp',
];
const main = () => screen.getByRole('img', { name: /^Pixel 8 in Obsidian/ });

describe('PhotoGallery', () => {
  it('shows the cover first, large, eager and at a fixed size', () => {
    render(<PhotoGallery photos={photos} subject="Pixel 8 in Obsidian" />);
    expect(main()).toHaveAccessibleName('Pixel 8 in Obsidian, photo 1 of 3');
    expect(main()).toHaveAttribute('src', photos[0]);
    expect(main()).toHaveAttribute('srcset', expect.stringContaining('-960.webp 960w'));
    expect(main()).toHaveAttribute('width', '800');
    expect(main()).toHaveAttribute('height', '600');
    expect(main()).toHaveAttribute('loading', 'eager');
    expect(main()).toHaveAttribute('fetchpriority', 'high');
    expect(screen.getByRole('button', { name: 'Show photo 1 of 3' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  });

  it('switches the photo with a thumbnail, the arrows between thumbnails, and previous and next', async () => {
    const user = userEvent.setup();
    render(<PhotoGallery photos={photos} subject="Pixel 8 in Obsidian" />);
    await user.click(screen.getByRole('button', { name: 'Show photo 3 of 3' }));
    expect(main()).toHaveAttribute('src', photos[2]);
    expect(screen.getByRole('button', { name: 'Show photo 3 of 3' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(screen.getByRole('button', { name: 'Show photo 1 of 3' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );

    await user.keyboard('{ArrowRight}');
    expect(main()).toHaveAttribute('src', photos[0]);
    expect(screen.getByRole('button', { name: 'Show photo 1 of 3' })).toHaveFocus();
    await user.keyboard('{ArrowLeft}');
    expect(main()).toHaveAccessibleName('Pixel 8 in Obsidian, photo 3 of 3');

    await user.click(screen.getByRole('button', { name: 'Next photo' }));
    expect(main()).toHaveAttribute('src', photos[0]);
    await user.click(screen.getByRole('button', { name: 'Previous photo' }));
    expect(main()).toHaveAttribute('src', photos[2]);
    expect(screen.getByText('Photo 3 of 3')).toHaveAttribute('aria-live', 'polite');
  });

  it('has nothing to switch with one photo', () => {
    render(<PhotoGallery photos={photos.slice(0, 1)} subject="Pixel 8 in Obsidian" />);
    expect(main()).toHaveAccessibleName('Pixel 8 in Obsidian');
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Photos' })).getAllByRole('img')).toHaveLength(
      1,
    );
  });
});
