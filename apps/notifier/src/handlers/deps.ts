import type { Members } from '@platform/accounts';
import type { NotificationsStore, NotificationsWriter, OutgoingDoc } from '@platform/notifications';

export interface Kicker {
  /**
   * Sends what a lane has waiting, now (the sweep would otherwise find it). `queued`: a notification being
   * queued on the lane (its insert, resolving to the document once stored, or to null; never rejecting): the
   * lane's dispatch starts meanwhile.
   */
  kick(lane: string, queued?: Promise<OutgoingDoc | null>): void;
  /** Every lane of a deployment with something waiting (after an unpause). */
  kickDeployment(deploymentId: string): Promise<void>;
}

export interface HandlerDeps {
  store: NotificationsStore;
  writer: NotificationsWriter;
  members: Members;
  dispatcher: Kicker;
  /** The methods besides the inbox every notification goes out by (a template may name its own). */
  methods: ReadonlyArray<'smtp' | 'webhook'>;
}
