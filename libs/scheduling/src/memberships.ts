import { MessageTypeNames } from '@platform/contracts';
import { outboxEvent } from '@platform/mongo';
import type { MembershipDoc, Role, SchedulingWriter } from './store.js';

export function membershipSnapshot(m: Pick<MembershipDoc, 'id' | 'team_id' | 'user_id' | 'role' | 'accepted'>): string {
  return JSON.stringify({ id: m.id, teamId: m.team_id, userId: m.user_id, role: m.role, accepted: m.accepted });
}

export function membershipChanged(
  m: Omit<MembershipDoc, 'outbox' | 'has_outbox'>,
  change: 'created' | 'updated' | 'deleted',
  actor: string | null,
) {
  return {
    id: m.id,
    change,
    team_id: m.team_id,
    user_id: m.user_id,
    actor_user_id: actor,
    snapshot: membershipSnapshot(m),
    occurred_at: Date.now(),
  };
}

/** Writes a new membership with its MembershipChanged event in the outbox (one single-document insert). */
export async function insertMembership(
  writer: SchedulingWriter,
  fields: { commandId: string; teamId: number; userId: string; role: Role; accepted: boolean; actor: string | null },
): Promise<MembershipDoc> {
  const id = await writer.nextId('membership');
  const at = new Date();
  const doc: Omit<MembershipDoc, 'outbox' | 'has_outbox'> = {
    _id: String(id),
    id,
    command_id: fields.commandId,
    team_id: fields.teamId,
    user_id: fields.userId,
    role: fields.role,
    accepted: fields.accepted,
    created_at: at,
    updated_at: at,
    deleted_at: null,
  };
  return writer.memberships.insert(doc, [
    outboxEvent(MessageTypeNames.MembershipChanged, doc._id, membershipChanged(doc, 'created', fields.actor)),
  ]);
}
