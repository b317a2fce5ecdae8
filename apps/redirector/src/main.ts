import { runService } from '@platform/runtime';
import { config } from './config.js';

// Redirects are traced by the app itself, a sample of them (REDIRECT_TRACE_RATIO), not one span per request,
// each span parented explicitly: no async context follows the requests (ADR 0017).
await runService({ name: 'redirector', config, load: () => import('./service.js'), telemetry: { traceIncomingHttp: false, asyncContext: false } });
