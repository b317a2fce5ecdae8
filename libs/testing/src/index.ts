export { resolveInfra, startInfra } from './infra.js';
export type { Infra } from './infra.js';
export { uniqueName, waitFor } from './wait.js';
export { startWebhookReceiver } from './webhook-receiver.js';
export type { WebhookReceiver, ReceivedRequest } from './webhook-receiver.js';
export { startProcess } from './process.js';
export type { ManagedProcess } from './process.js';
export { readMailbox, clearMailbox } from './mailbox.js';
export type { MailboxMessage } from './mailbox.js';
