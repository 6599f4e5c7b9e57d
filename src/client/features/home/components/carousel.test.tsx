import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Carousel, HEADLINE, TAGLINE } from './carousel';

const currentSlide = () => screen.getByRole('group');

describe('Carousel', () => {
  it('has four slides with the same headline and tagline', () => {
    const { container } = render(<Carousel />);
    expect(container.querySelectorAll('[aria-roledescription="slide"]')).toHaveLength(4);
    // Hidden slides are aria-hidden and inert: assistive technology meets one headline.
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(HEADLINE);
    expect(container.querySelectorAll('h1')).toHaveLength(4);
    for (const h1 of container.querySelectorAll('h1')) expect(h1).toHaveTextContent(HEADLINE);
    expect(container.querySelectorAll('p')).toHaveLength(4);
    for (const p of container.querySelectorAll('p')) expect(p).toHaveTextContent(TAGLINE);
  });

  it('wraps from the first slide back to the last, and from the last to the first', async () => {
    render(<Carousel />);
    expect(currentSlide()).toHaveAccessibleName('1 of 4');
    await userEvent.click(screen.getByRole('button', { name: 'Previous slide' }));
    expect(currentSlide()).toHaveAccessibleName('4 of 4');
    await userEvent.click(screen.getByRole('button', { name: 'Next slide' }));
    expect(currentSlide()).toHaveAccessibleName('1 of 4');
  });

  it('loads the first slide eagerly as the likely largest paint and the others lazily', () => {
    const { container } = render(<Carousel />);
    const images = [...container.querySelectorAll('img')];
    expect(images[0]).toHaveAttribute('fetchpriority', 'high');
    expect(images[0]).toHaveAttribute('loading', 'eager');
    for (const img of images.slice(1)) expect(img).toHaveAttribute('loading', 'lazy');
  });
});
