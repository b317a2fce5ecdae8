// The process entry only: connections and the service module load after telemetry (see runService).
// Tests compose services in one process with startService from '@platform/runtime/start'.
export { runService } from './run-service.js';
export type { ServiceModule } from './run-service.js';
export type { BuildService, RuntimeSettings, Service, ServiceContext, SweptCollections } from './service.js';
