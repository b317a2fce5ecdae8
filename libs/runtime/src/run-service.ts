import { configOrExit, type ConfigLoader } from '@platform/config';
import { createLogger, onShutdown, startTelemetry, type TelemetryOptions } from '@platform/telemetry';
import type { BuildService, RuntimeSettings, Service } from './service.js';

export interface ServiceModule<S extends RuntimeSettings> {
  build: BuildService<S, Service>;
}

/**
 * The whole life of a process: configuration (a bad value stops it, naming every variable), telemetry before
 * any instrumented library loads (the service module and the connection libraries are imported after it),
 * the service started by startService, and on SIGTERM/SIGINT the ordered, draining shutdown within
 * SHUTDOWN_TIMEOUT_MS.
 */
export async function runService<S extends RuntimeSettings>(options: {
  name: string;
  config: ConfigLoader<S>;
  /** `() => import('./service.js')`: loaded once telemetry runs. */
  load: () => Promise<ServiceModule<S>>;
  /** What the process's telemetry leaves out (the redirector traces a sample of its requests itself). */
  telemetry?: Pick<TelemetryOptions, 'traceIncomingHttp' | 'asyncContext'>;
}): Promise<void> {
  const settings = configOrExit(options.config);
  const telemetry = startTelemetry({
    ...options.telemetry,
    serviceName: options.name,
    otlpEndpoint: settings.otlpEndpoint,
    traceSampleRatio: settings.traceSampleRatio,
  });
  const logger = createLogger({ name: options.name, level: settings.logLevel });
  const [{ startService }, { build }] = await Promise.all([import('./start-service.js'), options.load()]);
  let running: Awaited<ReturnType<typeof startService>>;
  try {
    running = await startService(options.name, build, { settings, logger, metrics: telemetry.metricsHandler });
  } catch (error) {
    logger.fatal({ err: error }, 'could not start');
    await telemetry.shutdown().catch(() => undefined);
    process.exit(1);
  }
  logger.info({ url: running.url }, `${options.name} started`);
  onShutdown(
    logger,
    async () => {
      await running.stop();
      await telemetry.shutdown();
    },
    settings.shutdownTimeoutMs,
  );
}
