/** Reports Core Web Vitals to the server with sendBeacon, so reporting never delays the page. */

import { API_BASE } from '@shared/call-routes';
import type { Metric } from 'web-vitals';

function send(metric: Metric): void {
  const body = JSON.stringify({
    name: metric.name,
    value: metric.value,
    rating: metric.rating,
    id: metric.id,
    navigationType: metric.navigationType,
    path: location.pathname,
  });
  navigator.sendBeacon?.(`${API_BASE}/vitals`, new Blob([body], { type: 'application/json' }));
}

/**
 * web-vitals loads after the page, off the first load: its observers read buffered entries,
 * so LCP, CLS, FCP and TTFB that happened before it arrived are still reported.
 */
export async function reportWebVitals(): Promise<void> {
  const { onCLS, onFCP, onINP, onLCP, onTTFB } = await import('web-vitals');
  for (const on of [onCLS, onFCP, onINP, onLCP, onTTFB]) on(send);
}
