import { Type } from '@platform/http';
import { BitlyTime, OptionalNullableSaying } from '../../schemas.js';

export const CampaignParams = Type.Object({ campaign_guid: Type.String({ minLength: 1, maxLength: 100 }) });

export const Campaign = Type.Object({
  references: Type.Object({ group: Type.String() }),
  guid: Type.String(),
  group_guid: Type.String(),
  created_by: Type.String({ description: 'The login of its creator.' }),
  name: Type.String(),
  description: Type.String(),
  created: BitlyTime,
  modified: BitlyTime,
});

const NAME_MESSAGE = 'must be a non-blank string of at most 200 characters';

/** A name of a campaign or channel: required on create, never blank. */
export const OrganizeName = Type.String({ maxLength: 200, pattern: '\\S', errorMessage: NAME_MESSAGE });

/** An edit's name: absent or null leaves it as it is. */
export const OptionalOrganizeName = OptionalNullableSaying(OrganizeName, NAME_MESSAGE);

/** The group a campaign or channel is made in: the caller's default group when none. */
export const TargetGroup = OptionalNullableSaying(
  Type.String({ maxLength: 100 }),
  'must be the guid of a group (a string of at most 100 characters)',
);

/** The members a create and an edit share; each absent or null one is left as it is. */
const campaignFields = {
  description: OptionalNullableSaying(Type.String({ maxLength: 2000 }), 'must be a string of at most 2000 characters'),
  channel_guids: OptionalNullableSaying(
    Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 100 }),
    'is a list of at most 100 channel guids (strings of 1 to 100 characters)',
  ),
};

export const CreateCampaignBody = Type.Object({ group_guid: TargetGroup, name: OrganizeName, ...campaignFields });

/** An edit names the fields a create takes; `group_guid`, if sent, must be the campaign's own (campaigns do not move). */
export const UpdateCampaignBody = Type.Object({
  group_guid: TargetGroup,
  name: OptionalOrganizeName,
  ...campaignFields,
});
