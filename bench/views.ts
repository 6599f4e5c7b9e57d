/**
 * Views counted (issue 35, decision 055): a phone's public page under load alone, then the same
 * load while every page shown also sends its view, as browsers do (one POST /api/products/:id/views
 * per page, from as many different browsers, each a new viewer: the counter buffers and writes
 * them in batches). The page's throughput with the views over without them is the figure (target:
 * within 5%, at least 0.95). Runs alternate, the median of three is reported.
 */
import { withAppServer } from './lib/app-server';
import { type LoadOptions, runLoad } from './lib/load';
import type { Figure } from './lib/report';
import { median } from './lib/stats';

const SECTION = 'Views counted (issue 35)';
const LOAD = { connections: 10, duration: 8 };
const RUNS = 3;
/** Distinct browsers the beacons come from, cycled: each a viewer of its own (the options go to
 * autocannon on its command line, which holds about 128 KB). */
const BROWSERS = 400;

export async function benchViews(): Promise<Figure[]> {
  return withAppServer({ seedDemo: true }, async (origin) => {
    const res = await fetch(`${origin}/api/category/01`);
    const phones = (await res.json()) as { _id: string; status?: string }[];
    const phone = phones.find((p) => p.status === 'available');
    if (!phone) throw new Error('no phone for sale in the demo data');
    const page: LoadOptions = { url: `${origin}/product/${phone._id}`, ...LOAD };
    const beacons = (rate: number) =>
      ({
        url: `${origin}/api/products/${phone._id}/views`,
        ...LOAD,
        overallRate: Math.max(1, Math.round(rate)),
        requests: Array.from({ length: BROWSERS }, (_, i) => ({
          method: 'POST',
          headers: {
            'user-agent': `Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0.${i} Safari/537.36`,
          },
        })),
      }) as LoadOptions;
    await runLoad({ ...page, duration: 2 });
    const alone: number[] = [];
    const withViews: number[] = [];
    const sent: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const a = await runLoad(page);
      alone.push(a.requestsPerSecond);
      // As many views a second as the page was served alone: one per page shown.
      const [b, v] = await Promise.all([runLoad(page), runLoad(beacons(a.requestsPerSecond))]);
      withViews.push(b.requestsPerSecond);
      sent.push(v.requestsPerSecond);
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
        name: 'phone page alone (requests/s)',
        value: median(alone),
        unit: 'req/s',
        spread: spread(alone),
      },
      {
        section: SECTION,
        name: 'phone page while each page sends its view (requests/s)',
        value: median(withViews),
        unit: 'req/s',
        spread: spread(withViews),
        note: `views sent meanwhile: median ${median(sent).toFixed(0)}/s`,
      },
      {
        section: SECTION,
        name: 'phone page throughput with views over without',
        value: median(ratios),
        unit: 'ratio',
        target: { op: '>=', value: 0.95 },
        spread: spread(ratios),
        note: 'the same machine serves both the pages and the views (2 shared cores)',
      },
    ];
  });
}
