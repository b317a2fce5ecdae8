export { generateSecret, generateId, hashSecret, verifySecret, safeEqual } from './secrets.js';
export { createSealer } from './sealer.js';
export { hashPassword, verifyPassword, needsRehash } from './passwords.js';
export type { Sealer } from './sealer.js';
export { uuidv7, uuidv7Time } from './uuid.js';
