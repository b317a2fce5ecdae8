import { InputError } from '@platform/errors';
import {
  decodeMessage,
  isKnownSchema,
  readConfluentFrame,
  type MessageType,
  type MessageTypes,
  type RegistrySchemas,
} from '@platform/contracts';
import { HEADERS, type MessageMeta } from './headers.js';

/**
 * Reads both forms a body can have during the move to the schema registry (ADR 0021): bare Avro named by
 * `ce_schema`, and the Confluent wire format, marked by the `schema_registry_id` header. A framed body whose
 * `ce_schema` is a released schema is read without the registry; the registry is asked (once per id) only for a
 * writer schema this build does not know, such as a newer producer's.
 */
export async function decodeBody<T extends MessageType>(
  registry: RegistrySchemas | undefined,
  type: T,
  meta: MessageMeta,
  value: Buffer,
): Promise<MessageTypes[T]> {
  const registryId = meta.registryId;
  if (registryId === undefined) return decodeMessage(type, meta.schema, value);
  const frame = readConfluentFrame(value);
  if (!frame || String(frame.registryId) !== registryId) {
    throw new InputError(
      'undecodable_message',
      `${type}: the body does not start with the magic byte and registry id ${registryId} of its ${HEADERS.registryId} header`,
    );
  }
  if (!registry || isKnownSchema(type, meta.schema)) return decodeMessage(type, meta.schema, frame.body);
  return registry.decode(type, value);
}
