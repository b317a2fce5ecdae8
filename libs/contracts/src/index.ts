export { encodeMessage, decodeMessage, schemaIdOf, isMessageType, validateMessage } from './codec.js';
export type { EncodedMessage } from './codec.js';
export { MessageTypeNames } from './generated/types.js';
export type * from './generated/types.js';
