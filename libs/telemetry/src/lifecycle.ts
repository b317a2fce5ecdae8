import type { Logger } from './logger.js';

/**
 * Graceful shutdown on SIGTERM/SIGINT: run `stop` once (finish in-flight work, commit offsets, close
 * clients), then exit; a stop that overruns `timeoutMs` is abandoned with a non-zero exit.
 */
export function onShutdown(logger: Logger, stop: () => Promise<void>, timeoutMs: number): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error({ timeoutMs }, 'shutdown timed out');
      process.exit(1);
    }, timeoutMs);
    timer.unref();
    stop()
      .then(() => {
        logger.info('stopped');
        process.exit(0);
      })
      .catch((error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.once('SIGTERM', handler);
  process.once('SIGINT', handler);
  process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled rejection'));
}
