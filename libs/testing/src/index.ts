export { isolatedAppEnv, resolveInfra, startInfra } from './infra.js';
export type { Infra } from './infra.js';
export { uniqueName, waitFor } from './wait.js';
export { startWebhookReceiver } from './webhook-receiver.js';
export type { WebhookReceiver, ReceivedRequest } from './webhook-receiver.js';
export { startProcess } from './process.js';
export { freePort } from './free-port.js';
export type { ManagedProcess } from './process.js';
