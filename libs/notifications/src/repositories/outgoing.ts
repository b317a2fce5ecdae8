import { aggregateWriter } from '@platform/mongo';
import type { DispatchMethod, NotificationsModels, OutgoingDoc } from '../models.js';

/**
 * Notifications on their way out. A user's are read by their lane (`<deployment>:<user>`, the tenant and the
 * user at once); the sweeps read across deployments on purpose (what is due, wherever it is).
 */
export function outgoingRepository(models: NotificationsModels) {
  const { Outgoing } = models;
  const outgoing = aggregateWriter<OutgoingDoc>(Outgoing);
  return {
    async get(deploymentId: string, userId: string, id: string): Promise<OutgoingDoc | null> {
      return Outgoing.findOne({ _id: id, deployment_id: deploymentId, user_id: userId }).lean<OutgoingDoc>();
    },
    /** The oldest notification of a lane still to be sent by `method` (each method keeps the lane's order). */
    async laneHead(lane: string, method: DispatchMethod): Promise<OutgoingDoc | null> {
      return Outgoing.findOne({ lane, pending_methods: method }).sort({ notification_id: 1 }).lean<OutgoingDoc>();
    },
    /** The oldest `limit` notifications of a lane with a method still to go, oldest first: every method's head at once. */
    async lanePending(lane: string, limit: number): Promise<OutgoingDoc[]> {
      // By `pending_methods`, as `laneHead`: the lane's index holds only what is still to go, never its history.
      const methods: DispatchMethod[] = ['inbox', 'smtp', 'webhook'];
      return Outgoing.find({ lane, pending_methods: { $in: methods } })
        .sort({ notification_id: 1 })
        .limit(limit)
        .lean<OutgoingDoc[]>();
    },
    /** The lanes of a deployment with something waiting. */
    async pendingLanes(deploymentId: string): Promise<string[]> {
      return (await Outgoing.distinct('lane', { deployment_id: deploymentId, pending: { $gt: 0 } })) as string[];
    },
    /** Lanes with something due, in every deployment (retries, work of a crashed process, a deployment unpaused). */
    async dueLanes(now: Date, limit: number): Promise<Array<{ lane: string; deployment_id: string }>> {
      const docs = await Outgoing.find(
        { pending: { $gt: 0 }, next_attempt_at: { $lte: now } },
        { lane: 1, deployment_id: 1 },
      )
        .sort({ next_attempt_at: 1 })
        .limit(limit)
        .lean<Array<{ lane: string; deployment_id: string }>>();
      const seen = new Map(docs.map((d) => [d.lane, { lane: d.lane, deployment_id: d.deployment_id }]));
      return [...seen.values()];
    },
    writes: {
      source: outgoing.source,
      /** Queues a notification; false when it was queued before (a redelivered cause). */
      enqueue: (doc: Omit<OutgoingDoc, 'outbox' | 'has_outbox'>) => outgoing.insertOnce(doc, []),
      /** A compare-and-set on one notification's deliveries (the filter names it), with its events. */
      change: outgoing.change,
    },
  };
}
