/**
 * Views counted (issue 35, decision 055): a phone's public page under load alone, then visits as
 * browsers make them, the page and then its view (POST /api/products/:id/views) on the same
 * connection, from BROWSERS different browsers, each a viewer of its own: the counter buffers and
 * writes them in batches. The pages a second with their views over without them is the figure
 * (target: within 5%, at least 0.95). Runs alternate; the median of three is reported.
 */
import { withAppServer } from './lib/app-server';
import { type LoadOptions, runLoad } from './lib/load';
import type { Figure } from './lib/report';
import { median } from './lib/stats';

const SECTION = 'Views counted (issue 35)';
const LOAD = { connections: 10, duration: 8 };
const RUNS = 3;
/**
 * Distinct browsers the views come from, cycled: each a viewer of its own (the options go to
 * autocannon on its command line, which holds about 128 KB).
 */
const BROWSERS = 300;

export async function benchViews(): Promise<Figure[]> {
  return withAppServer({ seedDemo: true }, async (origin) => {
    const res = await fetch(`${origin}/api/category/01`);
    const phones = (await res.json()) as { _id: string; status?: string }[];
    const phone = phones.find((p) => p.status === 'available');
    if (!phone) throw new Error('no phone for sale in the demo data');
    const page: LoadOptions = { url: `${origin}/product/${phone._id}`, ...LOAD };
    // Each connection goes through the requests in order: a page, its view, the next page...
    const visits = {
      url: origin,
      ...LOAD,
      requests: Array.from({ length: BROWSERS }, (_, i) => [
        { method: 'GET', path: `/product/${phone._id}` },
        {
          method: 'POST',
          path: `/api/products/${phone._id}/views`,
          headers: { 'user-agent': `Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0.${i}` },
        },
      ]).flat(),
    } as LoadOptions;
    await runLoad({ ...page, duration: 2 });
    const alone: number[] = [];
    const withViews: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      alone.push((await runLoad(page)).requestsPerSecond);
      // Half the requests of the visits are pages.
      withViews.push((await runLoad(visits)).requestsPerSecond / 2);
    }
    const ratios = alone.map((a, i) => (withViews[i] ?? 0) / a);
    const spread = (values: number[]) => ({
      min: Math.min(...values),
      max: Math.max(...values),
      runs: values.length,
    });
    return [
      {
        section: SECTION,
        name: 'phone page alone (pages/s)',
        value: median(alone),
        unit: 'req/s',
        spread: spread(alone),
      },
      {
        section: SECTION,
        name: 'phone page, each followed by its view (pages/s)',
        value: median(withViews),
        unit: 'req/s',
        spread: spread(withViews),
        note: 'as many views, on the same connections',
      },
      {
        section: SECTION,
        name: 'pages a second with their views over without',
        value: median(ratios),
        unit: 'ratio',
        target: { op: '>=', value: 0.95 },
        spread: spread(ratios),
        note: 'one server on a shared 2-core machine with the load generator: CPU-bound, each view is a request of its own',
      },
    ];
  });
}
