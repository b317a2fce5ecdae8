import { configOrExit } from '@platform/config';
import { startTelemetry } from '@platform/telemetry';
import { config } from './config.js';

// Config first, then telemetry, before the instrumented libraries load.
const cfg = configOrExit(config);
const telemetry = startTelemetry({ serviceName: 'scheduling-worker', otlpEndpoint: cfg.otlpEndpoint });

const { run } = await import('./run.js');
await run(telemetry);
