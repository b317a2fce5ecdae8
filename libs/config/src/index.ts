export { Type } from '@sinclair/typebox';
export type { Static, TObject, TProperties } from '@sinclair/typebox';
export { ConfigError, configOrExit, createConfigLoader, parseEnv } from './load-config.js';
export type { ConfigLoader } from './load-config.js';
export {
  commonEnv,
  commonSettings,
  csv,
  kafkaSettings,
  telemetrySettings,
  trustProxyEnv,
  parseTrustProxy,
  workerEnv,
  workerSettings,
} from './common-env.js';
