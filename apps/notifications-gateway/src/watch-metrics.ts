import { metrics } from '@opentelemetry/api';

export interface Gauge {
  set(value: number): void;
}
export interface Counter {
  add(value: number, attributes?: Record<string, string>): void;
}

const meter = metrics.getMeter('@platform/notifications-gateway');

/** Open streams, frames sent, and streams closed for falling behind (by transport). */
export function watchMetrics() {
  let open = 0;
  meter
    .createObservableGauge('platform.notifications.watch.open', { description: 'Open watch streams' })
    .addCallback((r) => r.observe(open));
  return {
    open: { set: (value: number) => void (open = value) } satisfies Gauge,
    delivered: meter.createCounter('platform.notifications.watch.frames', {
      description: 'Watch frames handed to streams',
    }) satisfies Counter,
    slowClosed: meter.createCounter('platform.notifications.watch.slow_closed', {
      description: 'Streams closed because the reader fell behind',
    }) satisfies Counter,
  };
}
