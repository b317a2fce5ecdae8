import { KafkaJSProtocolError } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { isGroupMembershipLost } from './group-errors.js';

describe('isGroupMembershipLost', () => {
  it('recognises the heartbeat errors of a rebalance, and nothing else', () => {
    // kafkajs builds these from its protocol error table entries (typed as Error).
    const protocolError = (type: string, code: number) =>
      new KafkaJSProtocolError({ type, code, retriable: false, message: type } as unknown as Error);
    expect(isGroupMembershipLost(protocolError('REBALANCE_IN_PROGRESS', 27))).toBe(true);
    expect(isGroupMembershipLost(protocolError('UNKNOWN_MEMBER_ID', 25))).toBe(true);
    expect(isGroupMembershipLost(protocolError('ILLEGAL_GENERATION', 22))).toBe(true);
    expect(isGroupMembershipLost(protocolError('MESSAGE_TOO_LARGE', 10))).toBe(false);
    expect(isGroupMembershipLost(new Error('REBALANCE_IN_PROGRESS'))).toBe(false);
  });
});
