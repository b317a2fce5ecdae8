import { Type } from '@platform/http';
import {
  BitlyTime,
  OptionalNullable,
  OptionalNullableSaying,
  ShortlinkIdString,
  requiredUnlessAlias,
} from '../../schemas.js';
import { OptionalOrganizeName, OrganizeName, TargetGroup } from '../campaigns/schemas.js';

export const MAX_CHANNEL_LINKS = 1000;

export const ChannelParams = Type.Object({ channel_guid: Type.String({ minLength: 1, maxLength: 100 }) });

export const Channel = Type.Object({
  references: Type.Object({ group: Type.String() }),
  name: Type.String(),
  guid: Type.String(),
  created: BitlyTime,
  modified: BitlyTime,
  group_guid: Type.String(),
  shortlinks: Type.Array(
    Type.Object({
      campaign_guid: Type.String({ description: 'Empty when the link is in the channel for no campaign.' }),
      shortlink_id: Type.String(),
    }),
  ),
});

const ChannelLink = Type.Object(
  {
    shortlink_id: OptionalNullable(ShortlinkIdString),
    bitlink_id: OptionalNullable(ShortlinkIdString),
    campaign_guid: OptionalNullable(Type.String({ maxLength: 100, description: 'Tags the link with the campaign.' })),
  },
  requiredUnlessAlias('shortlink_id', 'bitlink_id'),
);

const ChannelLinks = OptionalNullableSaying(
  Type.Array(ChannelLink, { maxItems: MAX_CHANNEL_LINKS }),
  `is a list of at most ${MAX_CHANNEL_LINKS} objects, each with a shortlink_id (such as sho.rt/abc1234) and an optional campaign_guid`,
);

/** The links of the channel (replacing its list): `shortlinks`, or `bitlinks` as Bitly's clients name it. */
const channelLinkFields = { shortlinks: ChannelLinks, bitlinks: ChannelLinks };

export const CreateChannelBody = Type.Object({ group_guid: TargetGroup, name: OrganizeName, ...channelLinkFields });

export const UpdateChannelBody = Type.Object({ name: OptionalOrganizeName, ...channelLinkFields });
