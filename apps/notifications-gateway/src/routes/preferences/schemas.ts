import { Type } from '@platform/http';

/** Under the router's 100-character limit, so that a longer value is this schema's 400, not the router's 414. */
export const UserParams = Type.Object({
  user: Type.String({ minLength: 1, maxLength: 64, description: '`me`, a user id or a user name.' }),
});
