import { randomUUID } from 'node:crypto';
import type { MessageType, MessageTypes } from '@platform/contracts';
import type { StoredOutboxEntry } from '@platform/mongo';
import { injectTraceContext } from '@platform/telemetry';
import { USERMGMT_TOPICS } from '../topics.js';

export function usermgmtEvent<T extends MessageType>(type: T, key: string, value: MessageTypes[T]): StoredOutboxEntry {
  return { id: randomUUID(), topic: USERMGMT_TOPICS.events, key, type, value, headers: injectTraceContext({}), created_at: new Date() };
}
