import { Type } from '@platform/http';

export const UserParams = Type.Object({
  user: Type.String({ minLength: 1, maxLength: 100, description: '`me`, a user id or a user name.' }),
});
