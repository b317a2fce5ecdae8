export { createUserDirectory, MIN_PASSWORD_LENGTH } from './users.js';
export type { UserDirectory, SchedulingUserDoc, NewSchedulingUser, UserRole } from './users.js';
