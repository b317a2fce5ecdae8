export {
  encodeMessage,
  decodeMessage,
  decodeWithWriter,
  hasField,
  isKnownSchema,
  schemaIdOf,
  schemaTextOf,
  isMessageType,
  validateMessage,
} from './codec.js';
export { CONFLUENT_MAGIC_BYTE, frameConfluent, readConfluentFrame } from './confluent-wire.js';
export {
  REGISTRY_COMPATIBILITY,
  createRegistrySchemas,
  createSchemaRegistryClient,
  registerSchemas,
  registrySubject,
} from './schema-registry.js';
export type {
  CompatibilityLevel,
  RegistrySchemas,
  SchemaRegistryClient,
  SchemaRegistryOptions,
} from './schema-registry.js';
export type { EncodedMessage } from './codec.js';
export { MessageTypeNames } from './generated/types.js';
export type * from './generated/types.js';
export { DEAD_LETTER, TOPIC_CATALOGUE, topicEntry, topicOfRecord } from './topics.js';
export type { TopicEntry } from './topics.js';
export type { CommandReplies, CommandType, ReplyOf } from './replies.js';
