import { configOrExit } from '@platform/config';
import { startTelemetry } from '@platform/telemetry';
import { config } from './config.js';

// Config first (it loads nothing instrumented), then telemetry, before the instrumented libraries load:
// auto-instrumentation patches fastify, kafkajs' sockets, mongodb, ioredis and http as they are imported.
const cfg = configOrExit(config);
const telemetry = startTelemetry({ serviceName: 'usermgmt-gateway', otlpEndpoint: cfg.otlpEndpoint });

const { run } = await import('./run.js');
await run(telemetry);
