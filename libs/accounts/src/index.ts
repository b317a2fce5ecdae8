export { createAccounts, serviceAccounts } from './accounts.js';
export { REVOKED_KEYS_CHANNEL } from './key-memory.js';
export type { Accounts, ApiKeyIdentity, EnvironmentRecord, ApiKeyRecord } from './accounts.js';
export { SERVICES, isService } from './services.js';
export type { Service } from './services.js';
export { createMembers, MEMBER_ROLES, rememberingMembers } from './members.js';
export type { Members, MemberRecord, MemberRole } from './members.js';
