import type { MessageTypeNames } from '@platform/contracts';
import { InputError, NotFoundError } from '@platform/errors';
import type { IncomingMessage } from '@platform/kafka';
import type { HandlerDeps } from './deps.js';

type N = typeof MessageTypeNames;

async function assertGroup(deps: HandlerDeps, organizationId: string, groupGuid: string) {
  const group = await deps.store.getGroup(organizationId, groupGuid);
  if (!group) throw new NotFoundError('NOT_FOUND', 'No such group.');
}

/** Creates (under the gateway's guid, so a redelivery makes one) or edits a campaign of a group. */
export async function saveCampaign(
  deps: HandlerDeps,
  message: IncomingMessage<N['SaveCampaign']>,
): Promise<{ campaign_guid: string }> {
  const v = message.value;
  const at = new Date(v.requested_at);
  const existing = await deps.store.getCampaign(v.organization_id, v.campaign_guid);
  if (!v.create && !existing) throw new NotFoundError('NOT_FOUND', 'No such campaign.');
  const groupGuid = existing?.group_guid ?? v.group_guid;
  await assertGroup(deps, v.organization_id, groupGuid);
  if (v.channel_guids !== null) {
    for (const guid of v.channel_guids) {
      const channel = await deps.store.getChannel(v.organization_id, guid);
      if (!channel || channel.group_guid !== groupGuid)
        throw new InputError('INVALID_ARG_CHANNEL_GUIDS', `No channel ${guid} in the group.`);
    }
  }
  const user = await deps.members.get(v.organization_id, v.user_id);
  await deps.writer.saveCampaign(
    {
      _id: v.campaign_guid,
      organization_id: v.organization_id,
      group_guid: groupGuid,
      name: v.name ?? '',
      description: v.description ?? '',
      channel_guids: [...new Set(v.channel_guids ?? [])],
      created_by: user?.username ?? v.user_id,
      created_at: at,
      modified_at: at,
    },
    {
      ...(v.name !== null ? { name: v.name } : {}),
      ...(v.description !== null ? { description: v.description } : {}),
      ...(v.channel_guids !== null ? { channel_guids: [...new Set(v.channel_guids)] } : {}),
    },
    v.create,
  );
  return { campaign_guid: v.campaign_guid };
}

/** Creates or edits a channel; its links must be the group's, and a campaign named with a link lists that link. */
export async function saveChannel(
  deps: HandlerDeps,
  message: IncomingMessage<N['SaveChannel']>,
): Promise<{ channel_guid: string }> {
  const v = message.value;
  const at = new Date(v.requested_at);
  const existing = await deps.store.getChannel(v.organization_id, v.channel_guid);
  if (!v.create && !existing) throw new NotFoundError('NOT_FOUND', 'No such channel.');
  const groupGuid = existing?.group_guid ?? v.group_guid;
  await assertGroup(deps, v.organization_id, groupGuid);
  const shortlinks =
    v.shortlinks === null
      ? null
      : [...new Map(v.shortlinks.map((s) => [`${s.campaign_guid}\n${s.shortlink_id}`, s])).values()];
  for (const entry of shortlinks ?? []) {
    const link = await deps.store.getLink(v.organization_id, entry.shortlink_id);
    if (!link || link.group_guid !== groupGuid)
      throw new InputError('INVALID_ARG_SHORTLINKS', `No short link ${entry.shortlink_id} in the group.`);
    if (entry.campaign_guid) {
      const campaign = await deps.store.getCampaign(v.organization_id, entry.campaign_guid);
      if (!campaign || campaign.group_guid !== groupGuid)
        throw new InputError('INVALID_ARG_CAMPAIGN_GUID', `No campaign ${entry.campaign_guid} in the group.`);
    }
  }
  await deps.writer.saveChannel(
    {
      _id: v.channel_guid,
      organization_id: v.organization_id,
      group_guid: groupGuid,
      name: v.name ?? '',
      shortlinks: shortlinks ?? [],
      created_at: at,
      modified_at: at,
    },
    { ...(v.name !== null ? { name: v.name } : {}), ...(shortlinks !== null ? { shortlinks } : {}) },
    v.create,
  );
  const byCampaign = new Map<string, string[]>();
  for (const s of shortlinks ?? [])
    if (s.campaign_guid) byCampaign.set(s.campaign_guid, [...(byCampaign.get(s.campaign_guid) ?? []), s.shortlink_id]);
  for (const [campaign, ids] of byCampaign) {
    await deps.writer.addLinksToCampaign(v.organization_id, campaign, ids, v.channel_guid);
  }
  return { channel_guid: v.channel_guid };
}
