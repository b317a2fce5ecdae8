import { startTelemetry } from '@platform/telemetry';

const telemetry = startTelemetry({ serviceName: 'usermgmt-worker', otlpEndpoint: process.env['OTEL_EXPORTER_OTLP_ENDPOINT'] });

const { run } = await import('./run.js');
await run(telemetry);
