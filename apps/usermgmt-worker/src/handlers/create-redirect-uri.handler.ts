import type { IncomingMessage } from '@platform/kafka';
import { presentRedirectUri, validateRedirectUri } from '@platform/usermgmt';
import type { HandlerDeps } from './deps.js';

export async function createRedirectUri(
  deps: HandlerDeps,
  message: IncomingMessage<'platform.usermgmt.commands.CreateRedirectUri'>,
) {
  const { environment_id, redirect_uri_id, uri } = message.value;
  const doc = await deps.writer.redirectUris.create({
    environmentId: environment_id,
    id: redirect_uri_id,
    uri: validateRedirectUri(uri),
  });
  return presentRedirectUri(doc);
}
