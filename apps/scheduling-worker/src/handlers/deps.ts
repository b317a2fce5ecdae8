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
}
