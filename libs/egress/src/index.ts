export { createEgressGuard, EgressBlockedError } from './guard.js';
export type { EgressGuard, EgressGuardOptions } from './guard.js';
export { createEgressClient, EgressRedirectError } from './client.js';
export type { EgressClient, EgressResponse, EgressRequest, EgressDownload } from './client.js';
export { parsePublicUrl } from './url.js';
