import { createLogger, type Logger } from '@platform/telemetry';

/**
 * The logger of a service a test starts: silent unless TEST_LOG_LEVEL names a level; its lines go to standard
 * output, or to the file TEST_LOG_FILE names (the fuzz gate keeps each target's server errors beside its report).
 */
export function testLogger(name: string): Logger {
  const destination = process.env['TEST_LOG_FILE'];
  return createLogger({
    name,
    level: process.env['TEST_LOG_LEVEL'] ?? 'silent',
    ...(destination ? { destination } : {}),
  });
}
