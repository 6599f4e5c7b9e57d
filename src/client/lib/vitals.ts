/** Reports Core Web Vitals to the server with sendBeacon, so reporting never delays the page. */

import { API_BASE } from '@shared/call-paths';
import { type Metric, onCLS, onFCP, onINP, onLCP, onTTFB } from 'web-vitals';

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

export function reportWebVitals(): void {
  for (const on of [onCLS, onFCP, onINP, onLCP, onTTFB]) on(send);
}
