/**
 * The partition kafkajs's default partitioner (and the Java client's) gives a keyed message: murmur2 of the
 * key's UTF-8 bytes, made positive by masking the sign bit, modulo the topic's partitions. Any producer of a
 * topic must place a key where the others do, or one aggregate's messages lose their order.
 */
export function murmur2(data: Uint8Array): number {
  const m = 0x5bd1e995;
  const length = data.length;
  let h = (0x9747b28c ^ length) | 0;
  const tail = length & ~3;
  for (let i = 0; i < tail; i += 4) {
    let k = data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24);
    k = Math.imul(k, m);
    k ^= k >>> 24;
    k = Math.imul(k, m);
    h = Math.imul(h, m) ^ k;
  }
  const rest = length & 3;
  if (rest > 0) {
    if (rest === 3) h ^= data[tail + 2]! << 16;
    if (rest >= 2) h ^= data[tail + 1]! << 8;
    h ^= data[tail]!;
    h = Math.imul(h, m);
  }
  h ^= h >>> 13;
  h = Math.imul(h, m);
  h ^= h >>> 15;
  return h | 0;
}

/** Before the modulo (the producer knows the partition count): the hash with its sign bit masked. */
export const keyHash = (key: Uint8Array): number => murmur2(key) & 0x7fffffff;
