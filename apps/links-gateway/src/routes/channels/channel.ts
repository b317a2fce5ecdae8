import type { MemberRecord } from '@platform/accounts';
import { MessageTypeNames } from '@platform/contracts';
import type { SendOptions } from '@platform/kafka';
import { InputError, NotFoundError } from '@platform/errors';
import { bitlyTime, parseShortlinkId, type ChannelDoc } from '@platform/links';
import { accessTo, type GroupAccess } from '../../access.js';
import type { RouteDeps } from '../../deps.js';
import { groupRef } from '../campaigns/campaign.js';

type ChannelLinkInput = { shortlink_id?: string | null; bitlink_id?: string | null; campaign_guid?: string | null };

export const channelJson = (deps: RouteDeps, c: ChannelDoc) => ({
  references: { group: groupRef(deps, c.group_guid) },
  name: c.name,
  guid: c._id,
  created: bitlyTime(c.created_at),
  modified: bitlyTime(c.modified_at),
  group_guid: c.group_guid,
  shortlinks: c.shortlinks,
});

export async function channelFor(deps: RouteDeps, caller: MemberRecord, guid: string) {
  const channel = await deps.store.getChannel(caller.environment_id, guid);
  if (!channel) throw new NotFoundError('NOT_FOUND', 'No such channel.');
  return { channel, access: await accessTo(deps, caller, channel.group_guid) };
}

/** The channel's links with their ids normalised (`sho.rt/abc1234`); null leaves the list as it is. */
function channelLinks(entries: ChannelLinkInput[] | null | undefined) {
  if (!entries) return null;
  return entries.map((entry) => {
    const raw = entry.shortlink_id ?? entry.bitlink_id;
    const id = raw ? parseShortlinkId(raw) : null;
    if (!id) {
      const message = 'each shortlinks entry has a shortlink_id such as sho.rt/abc1234';
      throw new InputError('INVALID_ARG_SHORTLINKS', message, {
        issues: [{ field: 'shortlinks', code: 'invalid', message }],
      });
    }
    return { campaign_guid: entry.campaign_guid ?? '', shortlink_id: `${id.domain}/${id.hash}` };
  });
}

/** Creates or edits a channel (each null field left as it is) and answers it as the worker left it. */
export async function saveChannel(
  deps: RouteDeps,
  caller: MemberRecord,
  access: GroupAccess,
  guid: string,
  create: boolean,
  fields: { name?: string | null; shortlinks?: ChannelLinkInput[] | null; bitlinks?: ChannelLinkInput[] | null },
  send: SendOptions = {},
) {
  await deps.commands.send(
    MessageTypeNames.SaveChannel,
    access.group._id,
    {
      organization_id: caller.environment_id,
      user_id: caller._id,
      channel_guid: guid,
      create,
      group_guid: access.group._id,
      name: fields.name ?? null,
      shortlinks: channelLinks(fields.shortlinks ?? fields.bitlinks),
    },
    send,
  );
  return channelJson(deps, (await deps.store.getChannel(caller.environment_id, guid))!);
}
