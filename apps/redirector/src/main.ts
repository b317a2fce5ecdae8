import { setFlagsFromString } from 'node:v8';
import { runService } from '@platform/runtime';
import { config } from './config.js';

// A click lives until the broker has its batch, about a scavenge on a busy broker: V8 would then allocate
// every click in the old generation, and its mark-compacts would stall redirects (ADR 0017). Set before the
// service's modules load, so that no allocation site is ever pretenured.
setFlagsFromString('--no-allocation-site-pretenuring');

// Redirects are traced by the app itself, a sample of them (REDIRECT_TRACE_RATIO), not one span per request,
// each span parented explicitly: no async context follows the requests (ADR 0017).
await runService({
  name: 'redirector',
  config,
  load: () => import('./service.js'),
  telemetry: { traceIncomingHttp: false, asyncContext: false },
});
