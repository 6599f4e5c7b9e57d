/**
 * Phone photos made up for the reused-photo tests and bench (no camera, no internet): from a seed,
 * a phone lying or standing at some place, size and angle on a table or a cloth of its own colours
 * and light, its screen's wallpaper, camera lenses, a few things around it, a note or price tag in
 * words, and the sensor's grain. Each seed is a different picture; the same seed is the same one.
 */
import sharp from 'sharp';

/** A small seeded generator (mulberry32): the same seed, the same photo, on every machine. */
export function randomOf(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  'iPhone',
  'Galaxy',
  'Pixel',
  'unlocked',
  'mint',
  '128 GB',
  '256 GB',
  'like new',
  'battery 91%',
  '$420',
  '$180',
  'no scratches',
  'with box',
  'OnePlus',
  'Xiaomi',
  'charger',
];

/** The drawing's own size: 3:4, as a phone takes a photo upright. */
const DRAWN = { width: 1200, height: 1600 };

/**
 * The SVG of photo `seed`, drawn at 1200×1600 and shown `width` wide: a smaller one is the same
 * picture with fewer pixels (the false-match test renders a thousand of them small).
 */
export function syntheticPhotoSvg(seed: number, shownWidth = DRAWN.width): string {
  const { width, height } = DRAWN;
  const r = randomOf(seed);
  const between = (lo: number, hi: number) => lo + r() * (hi - lo);
  const colour = (light = [15, 85]) =>
    `hsl(${Math.floor(between(0, 360))} ${Math.floor(between(10, 90))}% ${Math.floor(between(light[0] as number, light[1] as number))}%)`;
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)] as T;

  const angle = Math.floor(between(0, 360));
  const parts: string[] = [
    `<defs>
      <linearGradient id="bg" gradientTransform="rotate(${angle} .5 .5)">
        <stop offset="0" stop-color="${colour()}"/><stop offset="1" stop-color="${colour()}"/>
      </linearGradient>
      <radialGradient id="light" cx="${between(0, 1)}" cy="${between(0, 1)}" r="${between(0.3, 0.9)}">
        <stop offset="0" stop-color="#fff" stop-opacity="${between(0.1, 0.5)}"/>
        <stop offset="1" stop-color="#000" stop-opacity="${between(0, 0.4)}"/>
      </radialGradient>
      <linearGradient id="screen" gradientTransform="rotate(${Math.floor(between(0, 360))} .5 .5)">
        <stop offset="0" stop-color="${colour()}"/><stop offset="${between(0.3, 0.7)}" stop-color="${colour()}"/><stop offset="1" stop-color="${colour()}"/>
      </linearGradient>
    </defs>`,
    `<rect width="${width}" height="${height}" fill="url(#bg)"/>`,
  ];
  // A table's edge, a wall, a cloth's folds: large bands across the picture.
  for (let i = 0, n = Math.floor(between(1, 4)); i < n; i++) {
    const y = between(0, height);
    parts.push(
      `<path d="M0 ${y} L${width} ${y + between(-400, 400)} L${width} ${height} L0 ${height} Z" fill="${colour()}" opacity="${between(0.2, 0.7)}"/>`,
    );
  }
  // Things around the phone: a cup, a case, a cable, keys.
  for (let i = 0, n = Math.floor(between(3, 9)); i < n; i++) {
    const x = between(0, width);
    const y = between(0, height);
    const size = between(40, 350);
    const fill = colour();
    const opacity = between(0.5, 1);
    const shape = pick(['circle', 'rect', 'ellipse', 'line']);
    if (shape === 'circle')
      parts.push(
        `<circle cx="${x}" cy="${y}" r="${size / 2}" fill="${fill}" opacity="${opacity}"/>`,
      );
    else if (shape === 'rect')
      parts.push(
        `<rect x="${x}" y="${y}" width="${size}" height="${size * between(0.3, 2)}" rx="${size / 8}" fill="${fill}" opacity="${opacity}" transform="rotate(${between(-60, 60)} ${x} ${y})"/>`,
      );
    else if (shape === 'ellipse')
      parts.push(
        `<ellipse cx="${x}" cy="${y}" rx="${size}" ry="${size * between(0.2, 0.8)}" fill="${fill}" opacity="${opacity}"/>`,
      );
    else
      parts.push(
        `<path d="M${x} ${y} Q${between(0, width)} ${between(0, height)} ${between(0, width)} ${between(0, height)}" stroke="${fill}" stroke-width="${between(6, 30)}" fill="none"/>`,
      );
  }
  // The phone: a body, its screen (on, with a wallpaper and icons, or off and dark), lenses.
  const pw = between(0.35, 0.65) * width;
  const ph = pw * between(1.8, 2.2);
  const px = between(0.05 * width, width - pw - 0.05 * width);
  const py = between(0.02 * height, Math.max(0.03 * height, height - ph - 0.02 * height));
  const tilt = between(-25, 25);
  const body = colour([5, 70]);
  const screenOn = r() < 0.75;
  const phone: string[] = [
    `<rect x="${px + 12}" y="${py + 18}" width="${pw}" height="${ph}" rx="${pw * 0.12}" fill="#000" opacity="0.35"/>`,
    `<rect x="${px}" y="${py}" width="${pw}" height="${ph}" rx="${pw * 0.12}" fill="${body}"/>`,
    `<rect x="${px + pw * 0.05}" y="${py + pw * 0.05}" width="${pw * 0.9}" height="${ph - pw * 0.1}" rx="${pw * 0.09}" fill="${screenOn ? 'url(#screen)' : '#111'}"/>`,
  ];
  if (screenOn) {
    for (let row = 0; row < 5; row++)
      for (let col = 0; col < 4; col++)
        if (r() < 0.8)
          phone.push(
            `<rect x="${px + pw * (0.12 + col * 0.2)}" y="${py + ph * (0.15 + row * 0.12)}" width="${pw * 0.13}" height="${pw * 0.13}" rx="${pw * 0.03}" fill="${colour()}"/>`,
          );
    phone.push(
      `<text x="${px + pw / 2}" y="${py + ph * 0.1}" font-family="sans-serif" font-size="${pw * 0.12}" fill="#fff" text-anchor="middle">${Math.floor(between(0, 24))}:${String(Math.floor(between(0, 60))).padStart(2, '0')}</text>`,
    );
  }
  for (let i = 0, n = Math.floor(between(1, 4)); i < n; i++)
    phone.push(
      `<circle cx="${px + pw * (0.2 + i * 0.15)}" cy="${py + pw * 0.2}" r="${pw * 0.05}" fill="#222" stroke="#888" stroke-width="3"/>`,
    );
  parts.push(`<g transform="rotate(${tilt} ${px + pw / 2} ${py + ph / 2})">${phone.join('')}</g>`);
  // A note or a price tag, in words.
  for (let i = 0, n = Math.floor(between(0, 3)); i < n; i++)
    parts.push(
      `<text x="${between(0, width * 0.7)}" y="${between(60, height)}" font-family="${pick(['sans-serif', 'serif', 'monospace'])}" font-size="${between(40, 120)}" fill="${colour()}" transform="rotate(${between(-20, 20)})">${pick(WORDS)} ${pick(WORDS)}</text>`,
    );
  parts.push(`<rect width="${width}" height="${height}" fill="url(#light)"/>`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${shownWidth}" height="${Math.round((shownWidth * height) / width)}" viewBox="0 0 ${width} ${height}">${parts.join('')}</svg>`;
}

/**
 * Photo `seed`, `width` wide, as a phone's camera would hand it over: the picture with the
 * sensor's grain, as a JPEG of quality 88.
 */
export async function syntheticPhoto(seed: number, width = DRAWN.width): Promise<Buffer> {
  const { data, info } = await sharp(Buffer.from(syntheticPhotoSvg(seed, width)))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const r = randomOf(seed ^ 0x5eed);
  const grain = 6 + r() * 10;
  for (let i = 0; i < data.length; i++) {
    // The sum of two uniforms: a triangular grain, close enough to a sensor's for a hash.
    const noise = (r() + r() - 1) * grain;
    data[i] = Math.max(0, Math.min(255, (data[i] as number) + noise));
  }
  return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
    .jpeg({ quality: 88 })
    .toBuffer();
}

/**
 * What a scammer makes of someone's photo: resized (640 and 320 wide), re-encoded (JPEG of
 * quality 60, WebP of quality 50), trimmed by 2 to 6 pixels on some edges, brightened (by 15 and
 * 20 %), and all of it at once as the served 640 WebP of a trimmed, brightened copy.
 */
export async function copiesOf(photo: Buffer): Promise<Record<string, Buffer>> {
  const { width = 0, height = 0 } = await sharp(photo).metadata();
  const trimmed = (left: number, top: number, right: number, bottom: number) =>
    sharp(photo).extract({ left, top, width: width - left - right, height: height - top - bottom });
  return {
    'resized to 640 wide (WebP, as we serve it)': await sharp(photo)
      .resize({ width: 640 })
      .webp({ quality: 72 })
      .toBuffer(),
    'resized to 320 wide': await sharp(photo).resize({ width: 320 }).jpeg().toBuffer(),
    'JPEG of quality 60': await sharp(photo).jpeg({ quality: 60 }).toBuffer(),
    'WebP of quality 50': await sharp(photo).webp({ quality: 50 }).toBuffer(),
    'trimmed by 2 px on every edge': await trimmed(2, 2, 2, 2).jpeg().toBuffer(),
    'trimmed by 6 px left and right': await trimmed(6, 0, 6, 0).jpeg().toBuffer(),
    'trimmed by 6 px top and bottom': await trimmed(0, 6, 0, 6).jpeg().toBuffer(),
    'trimmed by 6 px at one corner': await trimmed(6, 6, 0, 0).png().toBuffer(),
    'brightened by 15 %': await sharp(photo).modulate({ brightness: 1.15 }).jpeg().toBuffer(),
    'brightened by 20 %': await sharp(photo).modulate({ brightness: 1.2 }).webp().toBuffer(),
    'trimmed, brightened, 640 wide, WebP of quality 50': await trimmed(4, 3, 5, 2)
      .modulate({ brightness: 1.2 })
      .resize({ width: 640 })
      .webp({ quality: 50 })
      .toBuffer(),
  };
}
