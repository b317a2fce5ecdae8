import { configOrExit } from '@platform/config';
import { startTelemetry } from '@platform/telemetry';
import { config } from './config.js';

const cfg = configOrExit(config);
const telemetry = startTelemetry({ serviceName: 'scheduling-web', otlpEndpoint: cfg.otlpEndpoint });

const { run } = await import('./run.js');
await run(telemetry);
