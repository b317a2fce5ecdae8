import { startTelemetry } from '@platform/telemetry';

// Telemetry first: auto-instrumentation patches fastify, ioredis, mongodb and http as they load.
const telemetry = startTelemetry({
  serviceName: 'usermgmt-gateway',
  otlpEndpoint: process.env['OTEL_EXPORTER_OTLP_ENDPOINT'],
});

const { run } = await import('./run.js');
await run(telemetry);
