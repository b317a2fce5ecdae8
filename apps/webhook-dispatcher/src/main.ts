import { startTelemetry } from '@platform/telemetry';

const telemetry = startTelemetry({ serviceName: 'webhook-dispatcher', otlpEndpoint: process.env['OTEL_EXPORTER_OTLP_ENDPOINT'] });

const { run } = await import('./run.js');
await run(telemetry);
