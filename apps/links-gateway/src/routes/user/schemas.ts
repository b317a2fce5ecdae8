import { Type } from '@platform/http';
import { BitlyTime } from '../../schemas.js';

export const User = Type.Object({
  login: Type.String(),
  name: Type.String(),
  is_active: Type.Boolean(),
  created: BitlyTime,
  modified: BitlyTime,
  is_sso_user: Type.Boolean(),
  is_2fa_enabled: Type.Boolean(),
  default_group_guid: Type.String({ description: 'Empty until the user has a profile.' }),
  emails: Type.Array(Type.Object({ email: Type.String(), is_primary: Type.Boolean(), is_verified: Type.Boolean() })),
});
