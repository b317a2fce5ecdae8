import { expirationOf, invalid, longUrlOf } from '../../input.js';

export { expirationOf, invalid, longUrlOf };
import type { MemberRecord } from '@platform/accounts';
import { InputError, NotFoundError } from '@platform/errors';
import { parseShortlinkId, type LinkDoc } from '@platform/links';
import { accessTo, type GroupAccess } from '../../access.js';
import type { RouteDeps } from '../../deps.js';

/** A 400 naming the member, for checks that need data or the clock (the schema does the shapes). */
/** A 400 for a member that must be sent under one of two names (the schema cannot say which is missing). */
export const missing = (field: string, message: string) =>
  new InputError(`INVALID_ARG_${field.toUpperCase()}`, message, { issues: [{ field, code: 'missing', message }] });

export const viewOf = (deps: RouteDeps) => ({ apiBase: deps.publicBaseUrl, scheme: deps.scheme });

/** A link of the caller's organization by its id in any form, and the caller's role in its group. */
export async function linkFor(
  deps: RouteDeps,
  caller: MemberRecord,
  raw: string,
): Promise<{ link: LinkDoc; access: GroupAccess }> {
  const id = parseShortlinkId(raw);
  const link = id ? await deps.store.getLink(caller.environment_id, `${id.domain}/${id.hash}`) : null;
  if (!link) throw new NotFoundError('NOT_FOUND', 'No such short link.');
  return { link, access: await accessTo(deps, caller, link.group_guid) };
}
