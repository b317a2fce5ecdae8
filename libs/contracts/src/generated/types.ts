// Generated from schemas/ by `npm run schemas:gen`. Do not edit.

/** Allow a browser origin to call the API for one environment. */
export interface CreateCorsOrigin {
  environment_id: string;
  cors_origin_id: string;
  /** Normalised scheme://host[:port]. */
  origin: string;
}

export interface CreateRedirectUri {
  environment_id: string;
  redirect_uri_id: string;
  uri: string;
}

export interface CreateUser {
  environment_id: string;
  user_id: string;
  email: string;
  first_name: null | string;
  last_name: null | string;
  email_verified: boolean;
  external_id: null | string;
  metadata: Record<string, string>;
  /** scrypt hash computed at the gateway; the password itself never travels. */
  password_hash: null | string;
}

export interface CreateWebhookEndpoint {
  environment_id: string;
  webhook_endpoint_id: string;
  endpoint_url: string;
  events: Array<string>;
}

export interface DeleteWebhookEndpoint {
  environment_id: string;
  webhook_endpoint_id: string;
}

/** A new signing secret; the previous one keeps signing (beside the new) for a window. */
export interface RotateWebhookEndpointSecret {
  environment_id: string;
  webhook_endpoint_id: string;
  previous_valid_for_seconds: number;
}

export interface UpdateJwtTemplate {
  environment_id: string;
  content: string;
}

/** Partial update: a null field is left as it is. */
export interface UpdateWebhookEndpoint {
  environment_id: string;
  webhook_endpoint_id: string;
  endpoint_url: null | string;
  events: null | Array<string>;
  status: null | string;
}

export interface CorsOriginCreated {
  environment_id: string;
  cors_origin_id: string;
  origin: string;
  created_at: number;
}

export interface JwtTemplateUpdated {
  environment_id: string;
  updated_at: number;
}

export interface RedirectUriCreated {
  environment_id: string;
  redirect_uri_id: string;
  uri: string;
  created_at: number;
}

/** A user was created in an environment (webhook event user.created). */
export interface UserCreated {
  environment_id: string;
  user_id: string;
  email: string;
  first_name: null | string;
  last_name: null | string;
  email_verified: boolean;
  external_id: null | string;
  metadata: Record<string, string>;
  created_at: number;
}

/** A webhook endpoint was created, updated, disabled or deleted. The signing secret never travels here. */
export interface WebhookEndpointChanged {
  environment_id: string;
  webhook_endpoint_id: string;
  change: 'created' | 'updated' | 'deleted';
  endpoint_url: string;
  events: Array<string>;
  status: string;
  occurred_at: number;
}

/** Manual redelivery: one delivery, or every failed delivery of a target since a time. */
export interface RedeliverDeliveries {
  producer: string;
  tenant_id: string;
  target_id: string;
  delivery_id: null | string;
  since: null | number;
  requested_at: number;
}

/** Deliver one event to one target. The delivery id is deterministic per (event, target), so a re-published request is a no-op. */
export interface RequestDelivery {
  delivery_id: string;
  /** Owning service, e.g. usermgmt. */
  producer: string;
  /** The producer's tenant (environment, account). */
  tenant_id: string;
  target: {
  id: string;
  url: string;
  /** Signing secret sealed with the platform's sealing key. */
  sealed_secret: string;
  signature_scheme: 'workos' | 'standard';
  /** During a secret rotation window, the previous secret: deliveries carry a signature with each. */
  previous_sealed_secret: null | string;
  previous_secret_expires_at: null | number;
  oauth: null | {
  token_url: string;
  client_id: string;
  sealed_client_secret: string;
  scope: null | string;
};
};
  event_id: string;
  event_type: string;
  /** The exact JSON body to POST. */
  payload: string;
  requested_at: number;
}

/** The final result of a delivery: delivered, or dead-lettered after its last attempt. */
export interface DeliveryOutcome {
  delivery_id: string;
  producer: string;
  tenant_id: string;
  target_id: string;
  event_id: string;
  outcome: 'delivered' | 'dead_lettered';
  attempts: number;
  last_status: null | number;
  occurred_at: number;
}

/** The delivery layer stopped sending to a target; its producer should mark it disabled and alert the owner. */
export interface TargetDisabled {
  producer: string;
  tenant_id: string;
  target_id: string;
  reason: string;
  occurred_at: number;
}

export interface MessageTypes {
  'platform.usermgmt.commands.CreateCorsOrigin': CreateCorsOrigin;
  'platform.usermgmt.commands.CreateRedirectUri': CreateRedirectUri;
  'platform.usermgmt.commands.CreateUser': CreateUser;
  'platform.usermgmt.commands.CreateWebhookEndpoint': CreateWebhookEndpoint;
  'platform.usermgmt.commands.DeleteWebhookEndpoint': DeleteWebhookEndpoint;
  'platform.usermgmt.commands.RotateWebhookEndpointSecret': RotateWebhookEndpointSecret;
  'platform.usermgmt.commands.UpdateJwtTemplate': UpdateJwtTemplate;
  'platform.usermgmt.commands.UpdateWebhookEndpoint': UpdateWebhookEndpoint;
  'platform.usermgmt.events.CorsOriginCreated': CorsOriginCreated;
  'platform.usermgmt.events.JwtTemplateUpdated': JwtTemplateUpdated;
  'platform.usermgmt.events.RedirectUriCreated': RedirectUriCreated;
  'platform.usermgmt.events.UserCreated': UserCreated;
  'platform.usermgmt.events.WebhookEndpointChanged': WebhookEndpointChanged;
  'platform.webhooks.commands.RedeliverDeliveries': RedeliverDeliveries;
  'platform.webhooks.commands.RequestDelivery': RequestDelivery;
  'platform.webhooks.events.DeliveryOutcome': DeliveryOutcome;
  'platform.webhooks.events.TargetDisabled': TargetDisabled;
}

export type MessageType = keyof MessageTypes;

export const MessageTypeNames = {
  CreateCorsOrigin: 'platform.usermgmt.commands.CreateCorsOrigin',
  CreateRedirectUri: 'platform.usermgmt.commands.CreateRedirectUri',
  CreateUser: 'platform.usermgmt.commands.CreateUser',
  CreateWebhookEndpoint: 'platform.usermgmt.commands.CreateWebhookEndpoint',
  DeleteWebhookEndpoint: 'platform.usermgmt.commands.DeleteWebhookEndpoint',
  RotateWebhookEndpointSecret: 'platform.usermgmt.commands.RotateWebhookEndpointSecret',
  UpdateJwtTemplate: 'platform.usermgmt.commands.UpdateJwtTemplate',
  UpdateWebhookEndpoint: 'platform.usermgmt.commands.UpdateWebhookEndpoint',
  CorsOriginCreated: 'platform.usermgmt.events.CorsOriginCreated',
  JwtTemplateUpdated: 'platform.usermgmt.events.JwtTemplateUpdated',
  RedirectUriCreated: 'platform.usermgmt.events.RedirectUriCreated',
  UserCreated: 'platform.usermgmt.events.UserCreated',
  WebhookEndpointChanged: 'platform.usermgmt.events.WebhookEndpointChanged',
  RedeliverDeliveries: 'platform.webhooks.commands.RedeliverDeliveries',
  RequestDelivery: 'platform.webhooks.commands.RequestDelivery',
  DeliveryOutcome: 'platform.webhooks.events.DeliveryOutcome',
  TargetDisabled: 'platform.webhooks.events.TargetDisabled',
} as const satisfies Record<string, MessageType>;
