/**
 * Reports Core Web Vitals to the server with sendBeacon, so reporting never delays the page;
 * sent when the page is hidden (left, closed, switched away from), the moment web-vitals itself
 * recommends, rather than each as it comes: a beacon costs the main thread a few milliseconds,
 * and FCP and TTFB would otherwise be sent while the page starts (issue 23).
 */

import type { Metric } from 'web-vitals';
import { beacon } from './transport';

const queued: Metric[] = [];

function send(metric: Metric): void {
  beacon('vitals', {
    body: {
      name: metric.name,
      value: metric.value,
      rating: metric.rating,
      id: metric.id,
      navigationType: metric.navigationType,
      path: location.pathname,
    },
  });
}

function flush(): void {
  for (const metric of queued.splice(0)) send(metric);
}

/**
 * web-vitals loads after the page, off the first load: its observers read buffered entries,
 * so LCP, CLS, FCP and TTFB that happened before it arrived are still reported.
 */
export async function reportWebVitals(): Promise<void> {
  const { onCLS, onFCP, onINP, onLCP, onTTFB } = await import('web-vitals');
  const queue = (metric: Metric) => queued.push(metric);
  for (const on of [onCLS, onFCP, onINP, onLCP, onTTFB]) on(queue);
  addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flush();
  });
  addEventListener('pagehide', flush);
}
