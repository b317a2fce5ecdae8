/**
 * The Confluent wire format that standard Kafka tooling reads: magic byte 0, the schema's registry id as a
 * 4-byte big-endian integer, then the Avro binary body.
 */
export const CONFLUENT_MAGIC_BYTE = 0;
const PREFIX = 5;

export function frameConfluent(registryId: number, body: Buffer): Buffer {
  if (!Number.isInteger(registryId) || registryId < 0 || registryId > 0xffffffff)
    throw new RangeError(`bad registry id ${registryId}`);
  const framed = Buffer.allocUnsafe(PREFIX + body.length);
  framed.writeUInt8(CONFLUENT_MAGIC_BYTE, 0);
  framed.writeUInt32BE(registryId, 1);
  body.copy(framed, PREFIX);
  return framed;
}

/** The registry id and body of a framed value; undefined when the value does not start with the frame. */
export function readConfluentFrame(value: Buffer): { registryId: number; body: Buffer } | undefined {
  if (value.length < PREFIX || value[0] !== CONFLUENT_MAGIC_BYTE) return undefined;
  return { registryId: value.readUInt32BE(1), body: value.subarray(PREFIX) };
}
