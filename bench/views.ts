/**
 * Views counted (issue 35, decision 055 and its addendum): a phone's public page under load from
 * BROWSERS different browsers (each a person's user agent, half bringing a device cookie), on two
 * servers alike but for COUNT_VIEWS: off on one, on on the other, where each page served puts a
 * view in the counter's buffer, written in batches. The pages a second with counting over
 * without is the figure (target: within 5%, at least 0.95). Runs alternate between the servers
 * (off-on, on-off, off-on); the median of three pairs' ratios is reported.
 */
import { withAppServer } from './lib/app-server';
import { type LoadOptions, runLoad } from './lib/load';
import type { Figure } from './lib/report';
import { median } from './lib/stats';

const SECTION = 'Views counted (issue 35)';
const LOAD = { connections: 10, duration: 8 };
const RUNS = 3;
/**
 * Distinct browsers the pages are asked by, cycled: each a viewer of its own (the options go to
 * autocannon on its command line, which holds about 128 KB).
 */
const BROWSERS = 300;

/** A phone for sale on the server at `origin` (the demo data's ids differ between servers). */
async function phoneOf(origin: string): Promise<string> {
  const res = await fetch(`${origin}/api/category/01`);
  const phones = (await res.json()) as { _id: string; status?: string }[];
  const phone = phones.find((p) => p.status === 'available');
  if (!phone) throw new Error('no phone for sale in the demo data');
  return phone._id;
}

/** The phone's page asked for by BROWSERS browsers in turn, as people's browsers ask for it. */
const pagesOf = (origin: string, id: string) =>
  ({
    url: origin,
    ...LOAD,
    requests: Array.from({ length: BROWSERS }, (_, i) => ({
      method: 'GET',
      path: `/product/${id}`,
      headers: {
        'user-agent': `Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0.${i}`,
        'accept-encoding': 'br, gzip',
        // Half the browsers bring a device cookie (a person who signed in once), half do not.
        ...(i % 2 === 0 ? { cookie: `device=${i.toString(16).padStart(32, '0')}` } : {}),
      },
    })),
  }) as LoadOptions;

export async function benchViews(): Promise<Figure[]> {
  return withAppServer({ seedDemo: true, env: { COUNT_VIEWS: '0' } }, (offOrigin) =>
    withAppServer({ seedDemo: true, env: { COUNT_VIEWS: '1' } }, async (onOrigin) => {
      const off = pagesOf(offOrigin, await phoneOf(offOrigin));
      const on = pagesOf(onOrigin, await phoneOf(onOrigin));
      await runLoad({ ...off, duration: 2 });
      await runLoad({ ...on, duration: 2 });
      const without: number[] = [];
      const counting: number[] = [];
      // Off then on, then on then off, and so on: a machine growing busier (another engineer's
      // work on the same cores) weighs on both sides alike, not always on the second.
      for (let run = 0; run < RUNS; run++) {
        const order = run % 2 === 0 ? [off, on] : [on, off];
        for (const load of order) {
          const perSecond = (await runLoad(load)).requestsPerSecond;
          (load === off ? without : counting).push(perSecond);
        }
      }
      const ratios = without.map((a, i) => (counting[i] ?? 0) / a);
      const spread = (values: number[]) => ({
        min: Math.min(...values),
        max: Math.max(...values),
        runs: values.length,
      });
      return [
        {
          section: SECTION,
          name: 'phone page, counting off (pages/s)',
          value: median(without),
          unit: 'req/s',
          spread: spread(without),
          note: `COUNT_VIEWS=0; ${BROWSERS} browsers, half with a device cookie`,
        },
        {
          section: SECTION,
          name: 'phone page, counting on (pages/s)',
          value: median(counting),
          unit: 'req/s',
          spread: spread(counting),
          note: 'COUNT_VIEWS=1: each page served is a view in the buffer',
        },
        {
          section: SECTION,
          name: 'pages a second counting over not',
          value: median(ratios),
          unit: 'ratio',
          target: { op: '>=', value: 0.95 },
          spread: spread(ratios),
          note: 'two servers alike but for COUNT_VIEWS, runs alternating; one shared 2-core machine with the load generator: CPU-bound, so noisy',
        },
      ];
    }),
  );
}
