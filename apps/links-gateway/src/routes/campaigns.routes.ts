import { randomUUID } from 'node:crypto';
import type { MemberRecord } from '@platform/accounts';
import { MessageTypeNames } from '@platform/contracts';
import { NotAllowedError, NotFoundError } from '@platform/errors';
import type { HttpApp } from '@platform/http';
import { bitlyTime, parseShortlinkId, type CampaignDoc, type ChannelDoc } from '@platform/links';
import { accessTo, requestedGroup, type GroupAccess } from '../access.js';
import { bodyOf, invalid, isObject, present, stringField, stringListField } from '../body.js';
import type { GatewayDeps } from '../deps.js';

const MAX_CHANNEL_LINKS = 1000;

const mayOrganize = (access: GroupAccess) => {
  if (access.role === 'GROUP_USER')
    throw new NotAllowedError('FORBIDDEN', 'Only admins and editors of the group may change campaigns and channels.');
};

/** Campaigns and channels: marketing groupings of a group's links (Bitly's `/v4/campaigns` and `/v4/channels`). */
export function campaignRoutes(app: HttpApp, deps: GatewayDeps) {
  const groupRef = (guid: string) => `${deps.publicBaseUrl}/v4/groups/${guid}`;
  const campaignJson = (c: CampaignDoc) => ({
    references: { group: groupRef(c.group_guid) },
    guid: c._id,
    group_guid: c.group_guid,
    created_by: c.created_by,
    name: c.name,
    description: c.description,
    created: bitlyTime(c.created_at),
    modified: bitlyTime(c.modified_at),
  });
  const channelJson = (c: ChannelDoc) => ({
    references: { group: groupRef(c.group_guid) },
    name: c.name,
    guid: c._id,
    created: bitlyTime(c.created_at),
    modified: bitlyTime(c.modified_at),
    group_guid: c.group_guid,
    shortlinks: c.shortlinks,
  });

  /** The groups a listing covers: the one asked for (if the caller is in it) or all of the caller's. */
  async function groupsToList(caller: MemberRecord, groupGuid: string | undefined): Promise<string[]> {
    if (groupGuid) return [(await accessTo(deps, caller, groupGuid)).group._id];
    return (await deps.store.groupsOfUser(caller._id))
      .filter((g) => g.organization_id === caller.environment_id)
      .map((g) => g._id);
  }

  async function campaignFor(caller: MemberRecord, guid: string) {
    const campaign = await deps.store.getCampaign(guid);
    if (!campaign || campaign.organization_id !== caller.environment_id)
      throw new NotFoundError('NOT_FOUND', 'No such campaign.');
    return { campaign, access: await accessTo(deps, caller, campaign.group_guid) };
  }

  async function channelFor(caller: MemberRecord, guid: string) {
    const channel = await deps.store.getChannel(guid);
    if (!channel || channel.organization_id !== caller.environment_id)
      throw new NotFoundError('NOT_FOUND', 'No such channel.');
    return { channel, access: await accessTo(deps, caller, channel.group_guid) };
  }

  function channelLinks(body: Record<string, unknown>) {
    const v = body['shortlinks'] ?? body['bitlinks'];
    if (!present(v)) return null;
    if (!Array.isArray(v) || v.length > MAX_CHANNEL_LINKS || !v.every(isObject))
      throw invalid('shortlinks', `shortlinks is a list of at most ${MAX_CHANNEL_LINKS} objects`);
    return v.map((entry) => {
      const raw = entry['shortlink_id'] ?? entry['bitlink_id'];
      const id = typeof raw === 'string' ? parseShortlinkId(raw) : null;
      if (!id) throw invalid('shortlinks', 'each shortlinks entry has a shortlink_id such as sho.rt/abc1234');
      const campaign = entry['campaign_guid'];
      if (present(campaign) && typeof campaign !== 'string') throw invalid('shortlinks', 'campaign_guid is a string');
      return { campaign_guid: (campaign as string | undefined) ?? '', shortlink_id: `${id.domain}/${id.hash}` };
    });
  }

  async function saveCampaign(
    caller: MemberRecord,
    access: GroupAccess,
    guid: string,
    create: boolean,
    body: Record<string, unknown>,
  ) {
    mayOrganize(access);
    const name = stringField(body, 'name', 200);
    if (create && (name === null || name.trim() === '')) throw invalid('name', 'name is required');
    await deps.commands.send(MessageTypeNames.SaveCampaign, access.group._id, {
      organization_id: caller.environment_id,
      user_id: caller._id,
      campaign_guid: guid,
      create,
      group_guid: access.group._id,
      name,
      description: stringField(body, 'description', 2000),
      channel_guids: stringListField(body, 'channel_guids', 100, 100),
    });
    return campaignJson((await deps.store.getCampaign(guid))!);
  }

  async function saveChannel(
    caller: MemberRecord,
    access: GroupAccess,
    guid: string,
    create: boolean,
    body: Record<string, unknown>,
  ) {
    mayOrganize(access);
    const name = stringField(body, 'name', 200);
    if (create && (name === null || name.trim() === '')) throw invalid('name', 'name is required');
    await deps.commands.send(MessageTypeNames.SaveChannel, access.group._id, {
      organization_id: caller.environment_id,
      user_id: caller._id,
      channel_guid: guid,
      create,
      group_guid: access.group._id,
      name,
      shortlinks: channelLinks(body),
    });
    return channelJson((await deps.store.getChannel(guid))!);
  }

  app.get<{ Querystring: { group_guid?: string } }>(
    '/v4/campaigns',
    { schema: { summary: "The campaigns of the user's groups", tags: ['campaigns'] } },
    async (request) => {
      const caller = request.caller!;
      const groups = await groupsToList(caller, request.query.group_guid);
      return { campaigns: (await deps.store.campaignsOf(caller.environment_id, groups)).map(campaignJson) };
    },
  );

  app.post(
    '/v4/campaigns',
    { schema: { summary: 'Create a campaign in a group', tags: ['campaigns'] } },
    async (request) => {
      const caller = request.caller!;
      const body = bodyOf(request);
      const access = await requestedGroup(deps, caller, body['group_guid']);
      return saveCampaign(caller, access, `Cm${randomUUID().replace(/-/g, '').slice(0, 9)}`, true, body);
    },
  );

  app.get<{ Params: { campaign_guid: string } }>(
    '/v4/campaigns/:campaign_guid',
    { schema: { summary: 'A campaign', tags: ['campaigns'] } },
    async (request) => {
      return campaignJson((await campaignFor(request.caller!, request.params.campaign_guid)).campaign);
    },
  );

  app.patch<{ Params: { campaign_guid: string } }>(
    '/v4/campaigns/:campaign_guid',
    { schema: { summary: 'Edit a campaign', tags: ['campaigns'] } },
    async (request) => {
      const caller = request.caller!;
      const { access } = await campaignFor(caller, request.params.campaign_guid);
      return saveCampaign(caller, access, request.params.campaign_guid, false, bodyOf(request));
    },
  );

  app.get<{ Querystring: { group_guid?: string; campaign_guid?: string } }>(
    '/v4/channels',
    { schema: { summary: "The channels of the user's groups or of a campaign", tags: ['channels'] } },
    async (request) => {
      const caller = request.caller!;
      let channels = await deps.store.channelsOf(
        caller.environment_id,
        await groupsToList(caller, request.query.group_guid),
      );
      if (request.query.campaign_guid) {
        const { campaign } = await campaignFor(caller, request.query.campaign_guid);
        channels = channels.filter(
          (c) => campaign.channel_guids.includes(c._id) || c.shortlinks.some((s) => s.campaign_guid === campaign._id),
        );
      }
      return { channels: channels.map(channelJson) };
    },
  );

  app.post(
    '/v4/channels',
    { schema: { summary: 'Create a channel in a group, with its short links', tags: ['channels'] } },
    async (request) => {
      const caller = request.caller!;
      const body = bodyOf(request);
      const access = await requestedGroup(deps, caller, body['group_guid']);
      return saveChannel(caller, access, `Ch${randomUUID().replace(/-/g, '').slice(0, 9)}`, true, body);
    },
  );

  app.get<{ Params: { channel_guid: string } }>(
    '/v4/channels/:channel_guid',
    { schema: { summary: 'A channel', tags: ['channels'] } },
    async (request) => {
      return channelJson((await channelFor(request.caller!, request.params.channel_guid)).channel);
    },
  );

  app.patch<{ Params: { channel_guid: string } }>(
    '/v4/channels/:channel_guid',
    { schema: { summary: 'Edit a channel and its short links', tags: ['channels'] } },
    async (request) => {
      const caller = request.caller!;
      const { access } = await channelFor(caller, request.params.channel_guid);
      return saveChannel(caller, access, request.params.channel_guid, false, bodyOf(request));
    },
  );
}
