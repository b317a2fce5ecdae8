import { Type } from '@platform/http';
import { BitlyTime } from '../../schemas.js';

export const OrganizationParams = Type.Object({ organization_guid: Type.String({ minLength: 1, maxLength: 100 }) });

/** Bitly's organization object; one per token here (a token acts for one user of one organization). */
export const Organization = Type.Object({
  references: Type.Object({ groups: Type.String({ description: "The API address of the organization's groups." }) }),
  name: Type.String(),
  guid: Type.String(),
  is_active: Type.Boolean(),
  tier: Type.String({ description: 'The plan: always "platform" here.' }),
  tier_family: Type.String(),
  tier_display_name: Type.String(),
  role: Type.String({ description: "The caller's role in the organization: ORG_ADMIN (its owner) or ORG_MEMBER." }),
  created: BitlyTime,
  modified: BitlyTime,
  bsds: Type.Array(Type.String(), { description: "The organization's branded short domains." }),
});
