/** Reports Core Web Vitals to the server with sendBeacon, so reporting never delays the page. */

import type { Metric } from 'web-vitals';
import { beacon } from './transport';

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

/**
 * web-vitals loads after the page, off the first load: its observers read buffered entries,
 * so LCP, CLS, FCP and TTFB that happened before it arrived are still reported.
 */
export async function reportWebVitals(): Promise<void> {
  const { onCLS, onFCP, onINP, onLCP, onTTFB } = await import('web-vitals');
  for (const on of [onCLS, onFCP, onINP, onLCP, onTTFB]) on(send);
}
