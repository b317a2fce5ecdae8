import type { MessageTypeNames } from '@platform/contracts';
import type { CommandHandlerMap } from '@platform/kafka';
import { createCorsOrigin } from './create-cors-origin.handler.js';
import { createRedirectUri } from './create-redirect-uri.handler.js';
import { createUser } from './create-user.handler.js';
import { deleteUser } from './delete-user.handler.js';
import { updateUser } from './update-user.handler.js';
import { createWebhookEndpoint } from './create-webhook-endpoint.handler.js';
import { deleteWebhookEndpoint } from './delete-webhook-endpoint.handler.js';
import type { HandlerDeps } from './deps.js';
import { updateJwtTemplate } from './update-jwt-template.handler.js';
import { updateWebhookEndpoint } from './update-webhook-endpoint.handler.js';
import { rotateWebhookEndpointSecret } from './rotate-webhook-endpoint-secret.handler.js';

type N = typeof MessageTypeNames;
export type UsermgmtCommand =
  | N['CreateCorsOrigin']
  | N['UpdateJwtTemplate']
  | N['CreateRedirectUri']
  | N['CreateWebhookEndpoint']
  | N['UpdateWebhookEndpoint']
  | N['DeleteWebhookEndpoint']
  | N['RotateWebhookEndpointSecret']
  | N['CreateUser']
  | N['UpdateUser']
  | N['DeleteUser'];

/** Every user-management command has exactly one handler: a missing entry is a type error. */
export const commandHandlers: CommandHandlerMap<UsermgmtCommand, HandlerDeps> = {
  'platform.usermgmt.commands.CreateCorsOrigin': createCorsOrigin,
  'platform.usermgmt.commands.UpdateJwtTemplate': updateJwtTemplate,
  'platform.usermgmt.commands.CreateRedirectUri': createRedirectUri,
  'platform.usermgmt.commands.CreateWebhookEndpoint': createWebhookEndpoint,
  'platform.usermgmt.commands.UpdateWebhookEndpoint': updateWebhookEndpoint,
  'platform.usermgmt.commands.DeleteWebhookEndpoint': deleteWebhookEndpoint,
  'platform.usermgmt.commands.RotateWebhookEndpointSecret': rotateWebhookEndpointSecret,
  'platform.usermgmt.commands.CreateUser': createUser,
  'platform.usermgmt.commands.UpdateUser': updateUser,
  'platform.usermgmt.commands.DeleteUser': deleteUser,
};
