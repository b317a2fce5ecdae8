/** kafkajs protocol errors that mean "this member no longer owns its partitions" (a rebalance began). */
const LOST_MEMBERSHIP = new Set([
  'REBALANCE_IN_PROGRESS',
  'UNKNOWN_MEMBER_ID',
  'ILLEGAL_GENERATION',
  'NOT_COORDINATOR_FOR_GROUP',
  'FENCED_INSTANCE_ID',
]);

/**
 * True when a handler failed only because its heartbeat learned that the group is rebalancing. The message
 * is not at fault: it must be neither retried here nor dead-lettered, but left uncommitted for the
 * partition's next owner (kafkajs rejoins the group when the error reaches it).
 */
export function isGroupMembershipLost(error: unknown): boolean {
  if (!(error instanceof Error) || error.name !== 'KafkaJSProtocolError') return false;
  const type = (error as Error & { type?: unknown }).type;
  return typeof type === 'string' && LOST_MEMBERSHIP.has(type);
}
