export { encodeMessage, decodeMessage, schemaIdOf, isMessageType, validateMessage } from './codec.js';
export type { EncodedMessage } from './codec.js';
export { MessageTypeNames } from './generated/types.js';
export type * from './generated/types.js';
export { DEAD_LETTER, TOPIC_CATALOGUE, topicEntry, topicOfRecord } from './topics.js';
export type { TopicEntry } from './topics.js';
export type { CommandReplies, CommandType, ReplyOf } from './replies.js';
