import { runService } from '@platform/runtime';
import { config } from './config.js';

// Redirects are traced by the app itself, a sample of them (REDIRECT_TRACE_RATIO), not one span per request.
await runService({ name: 'redirector', config, load: () => import('./service.js'), telemetry: { traceIncomingHttp: false } });
