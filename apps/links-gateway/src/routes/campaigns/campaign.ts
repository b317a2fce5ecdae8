import { randomUUID } from 'node:crypto';
import type { MemberRecord } from '@platform/accounts';
import { MessageTypeNames } from '@platform/contracts';
import type { SendOptions } from '@platform/kafka';
import { NotFoundError } from '@platform/errors';
import { bitlyTime, type CampaignDoc } from '@platform/links';
import { accessTo, type GroupAccess } from '../../access.js';
import type { RouteDeps } from '../../deps.js';

/** A new campaign's or channel's guid (`Cm…`, `Ch…`), chosen here so that a redelivered create makes one. */
export const newGuid = (prefix: 'Cm' | 'Ch') => `${prefix}${randomUUID().replace(/-/g, '').slice(0, 9)}`;

export const groupRef = (deps: RouteDeps, guid: string) => `${deps.publicBaseUrl}/v4/groups/${guid}`;

export const campaignJson = (deps: RouteDeps, c: CampaignDoc) => ({
  references: { group: groupRef(deps, c.group_guid) },
  guid: c._id,
  group_guid: c.group_guid,
  created_by: c.created_by,
  name: c.name,
  description: c.description,
  created: bitlyTime(c.created_at),
  modified: bitlyTime(c.modified_at),
});

/** The groups a listing covers: the one asked for (if the caller is in it) or all of the caller's. */
export async function groupsToList(deps: RouteDeps, caller: MemberRecord, groupGuid: string | undefined) {
  if (groupGuid) return [(await accessTo(deps, caller, groupGuid)).group._id];
  return (await deps.store.groupsOfUser(caller.environment_id, caller._id)).map((g) => g._id);
}

export async function campaignFor(deps: RouteDeps, caller: MemberRecord, guid: string) {
  const campaign = await deps.store.getCampaign(caller.environment_id, guid);
  if (!campaign) throw new NotFoundError('NOT_FOUND', 'No such campaign.');
  return { campaign, access: await accessTo(deps, caller, campaign.group_guid) };
}

/** Creates or edits a campaign (each null field left as it is) and answers it as the worker left it. */
export async function saveCampaign(
  deps: RouteDeps,
  caller: MemberRecord,
  access: GroupAccess,
  guid: string,
  create: boolean,
  fields: { name?: string | null; description?: string | null; channel_guids?: string[] | null },
  send: SendOptions = {},
) {
  await deps.commands.send(
    MessageTypeNames.SaveCampaign,
    access.group._id,
    {
      organization_id: caller.environment_id,
      user_id: caller._id,
      campaign_guid: guid,
      create,
      group_guid: access.group._id,
      name: fields.name ?? null,
      description: fields.description ?? null,
      channel_guids: fields.channel_guids ?? null,
    },
    send,
  );
  return campaignJson(deps, (await deps.store.getCampaign(caller.environment_id, guid))!);
}
