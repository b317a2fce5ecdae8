import type { UserDirectory } from '@platform/identity';
import type { Clock } from '@platform/kafka';
import type { SchedulingStore, SchedulingWriter } from '@platform/scheduling';

export interface HandlerDeps {
  store: SchedulingStore;
  writer: SchedulingWriter;
  users: Pick<UserDirectory, 'get'>;
  webUrl: string;
  inviteTtlSeconds: number;
  clock: Clock;
  /** Tells the outbox relay which document just received events, so it reads that one instead of scanning. */
  touched?(collection: string, id: string): void;
}
