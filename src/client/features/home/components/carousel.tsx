import { CAROUSEL_SLIDES } from '@shared/constants';
import { useState } from 'react';
import slide1 from '../assets/slide-1.svg';
import slide2 from '../assets/slide-2.svg';
import slide3 from '../assets/slide-3.svg';
import slide4 from '../assets/slide-4.svg';

const slides = [slide1, slide2, slide3, slide4].slice(0, CAROUSEL_SLIDES);

export const HEADLINE = 'Used phones you can trust';
export const TAGLINE =
  'Buy and resell phones from Apple, Samsung, Infinix, Oppo and Xiaomi, from verified sellers, at honest prices.';

/** Four slides with the same headline and tagline; previous and next wrap around. */
export function Carousel() {
  const [current, setCurrent] = useState(0);
  const go = (step: number) => setCurrent((c) => (c + step + slides.length) % slides.length);

  return (
    <section
      aria-roledescription="carousel"
      aria-label="Highlights"
      className="relative overflow-hidden rounded-box bg-primary"
    >
      <div
        className="flex transition-transform duration-500 motion-reduce:transition-none"
        style={{ transform: `translateX(-${current * 100}%)` }}
      >
        {slides.map((src, i) => (
          // biome-ignore lint/a11y/useSemanticElements: the WAI-ARIA carousel pattern names each slide a group; a fieldset is for form controls.
          <div
            key={src}
            role="group"
            aria-roledescription="slide"
            aria-label={`${i + 1} of ${slides.length}`}
            aria-hidden={i !== current}
            inert={i !== current}
            className="relative w-full shrink-0"
          >
            <img
              src={src}
              alt=""
              width={1600}
              height={640}
              className="aspect-[2/1] w-full object-cover object-right sm:aspect-[5/2]"
              fetchPriority={i === 0 ? 'high' : 'low'}
              loading={i === 0 ? 'eager' : 'lazy'}
              decoding={i === 0 ? 'sync' : 'async'}
            />
            {/* On a phone the words go below the picture (at 320-390 px they covered the phone
                drawn in it, issue 31); from sm up they sit on its empty left part. */}
            <div className="flex flex-col justify-center gap-2 p-5 text-primary-content sm:absolute sm:inset-0 sm:max-w-[55%] sm:gap-3 sm:p-12 sm:text-white">
              <h1 className="text-2xl font-extrabold sm:text-4xl lg:text-5xl">{HEADLINE}</h1>
              <p className="max-w-prose text-sm sm:text-lg sm:text-white/90">{TAGLINE}</p>
            </div>
          </div>
        ))}
      </div>
      {/* Over the picture's corner on a phone, where no words are; bottom right from sm up. */}
      <div className="absolute top-3 right-3 flex gap-2 sm:top-auto sm:right-4 sm:bottom-4">
        <button
          type="button"
          className="btn btn-circle btn-sm sm:btn-md"
          onClick={() => go(-1)}
          aria-label="Previous slide"
        >
          ❮
        </button>
        <button
          type="button"
          className="btn btn-circle btn-sm sm:btn-md"
          onClick={() => go(1)}
          aria-label="Next slide"
        >
          ❯
        </button>
      </div>
    </section>
  );
}
