import type {
  CorsOriginObject,
  JwtTemplateObject,
  RedirectUriObject,
  UserObject,
  WebhookEndpointObject,
} from './presenters.js';

/** Each user-management command's reply: the API object the gateway answers with (see CommandReplies). */
declare module '@platform/contracts' {
  interface CommandReplies {
    'platform.usermgmt.commands.CreateUser': UserObject;
    'platform.usermgmt.commands.UpdateUser': UserObject;
    'platform.usermgmt.commands.DeleteUser': null;
    'platform.usermgmt.commands.CreateCorsOrigin': CorsOriginObject;
    'platform.usermgmt.commands.CreateRedirectUri': RedirectUriObject;
    'platform.usermgmt.commands.UpdateJwtTemplate': JwtTemplateObject;
    'platform.usermgmt.commands.CreateWebhookEndpoint': WebhookEndpointObject;
    'platform.usermgmt.commands.UpdateWebhookEndpoint': WebhookEndpointObject;
    'platform.usermgmt.commands.RotateWebhookEndpointSecret': WebhookEndpointObject;
    'platform.usermgmt.commands.DeleteWebhookEndpoint': null;
  }
}

export type {};
