/**
 * A sign-up flood against what everyone else is loading: 40 sign-ups kept in flight (each a
 * password hash) while a visitor fetches the app's script and a phone's photo one after another.
 * The per-address and overall sign-up limits are lifted here (a botnet has many addresses), so
 * this measures the hashing queue alone: it keeps threads of libuv's pool free for file reads.
 */

import { withAppServer } from './lib/app-server';
import type { Figure } from './lib/report';

const SECTION = 'Static files under a sign-up flood (40 sign-ups in flight)';
const IN_FLIGHT = 40;
const DURATION_MS = 8_000;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
};

async function timed(url: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(url);
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  return performance.now() - started;
}

export async function benchSignUpFlood(): Promise<Figure[]> {
  const env = {
    SIGN_UPS_PER_ADDRESS: '1000000',
    SIGN_UPS_IN_ALL: '1000000',
    IDENTITY_RATE_LIMIT: '0',
  };
  return withAppServer({ seedDemo: true, env }, async (origin) => {
    const page = await (await fetch(`${origin}/`)).text();
    const script = page.match(/<script[^>]+src="([^"]+\.js)"/)?.[1];
    const advertised = (await (await fetch(`${origin}/api/advertise`)).json()) as {
      image: string;
    }[];
    const photo = advertised[0]?.image;
    if (!script || !photo) throw new Error('no script or photo to fetch on the home page');

    let flooding = true;
    let signUps = 0;
    const flood = async () => {
      while (flooding) {
        await fetch(`${origin}/api/auth/sign-up/email`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin },
          body: JSON.stringify({
            email: `flood-${signUps++}-${Math.random().toString(36).slice(2)}@bench.example`,
            name: 'Flood',
            password: 'Flood-Pass1!',
          }),
        }).catch(() => {});
      }
    };
    const floods = Array.from({ length: IN_FLIGHT }, flood);
    const scriptTimes: number[] = [];
    const photoTimes: number[] = [];
    const deadline = Date.now() + DURATION_MS;
    while (Date.now() < deadline) {
      scriptTimes.push(await timed(new URL(script, origin).href));
      photoTimes.push(await timed(new URL(photo, origin).href));
    }
    flooding = false;
    await Promise.all(floods);
    const note = `${signUps} sign-ups in ${DURATION_MS / 1000} s`;
    return [
      {
        section: SECTION,
        name: 'app script, median',
        value: Math.round(median(scriptTimes)),
        unit: 'ms',
        target: { op: '<=', value: 250 },
        note,
      },
      {
        section: SECTION,
        name: 'app script, slowest',
        value: Math.round(Math.max(...scriptTimes)),
        unit: 'ms',
      },
      {
        section: SECTION,
        name: 'photo, median',
        value: Math.round(median(photoTimes)),
        unit: 'ms',
        target: { op: '<=', value: 250 },
      },
      {
        section: SECTION,
        name: 'photo, slowest',
        value: Math.round(Math.max(...photoTimes)),
        unit: 'ms',
      },
    ];
  });
}
