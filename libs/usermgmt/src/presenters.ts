import type { CorsOriginDoc, JwtTemplateDoc, RedirectUriDoc, UserDoc, WebhookEndpointDoc } from './models.js';

/** API objects in the real service's shape: `object`, prefixed `id`, ISO 8601 timestamps. */
export interface CorsOriginObject {
  object: 'cors_origin';
  id: string;
  origin: string;
  created_at: string;
  updated_at: string;
}

export interface RedirectUriObject {
  object: 'redirect_uri';
  id: string;
  uri: string;
  default: boolean;
  created_at: string;
  updated_at: string;
}

export interface JwtTemplateObject {
  object: 'jwt_template';
  content: string;
  created_at: string;
  updated_at: string;
}

export interface WebhookEndpointObject {
  object: 'webhook_endpoint';
  id: string;
  endpoint_url: string;
  events: string[];
  status: 'enabled' | 'disabled';
  /** The signing secret, opened from its sealed form (WorkOS returns it on every read). */
  secret: string;
  /** Extensions beyond WorkOS's API: the endpoint's deliveries per second at most, and per-aggregate order. */
  rate_limit: number | null;
  ordered: boolean;
  created_at: string;
  updated_at: string;
}

export interface UserObject {
  object: 'user';
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  email_verified: boolean;
  profile_picture_url: string | null;
  last_sign_in_at: string | null;
  external_id: string | null;
  metadata: Record<string, string>;
  created_at: string;
  updated_at: string;
}

const iso = (d: Date) => d.toISOString();

export function presentCorsOrigin(doc: CorsOriginDoc): CorsOriginObject {
  return {
    object: 'cors_origin',
    id: doc._id,
    origin: doc.origin,
    created_at: iso(doc.created_at),
    updated_at: iso(doc.updated_at),
  };
}

export function presentRedirectUri(doc: RedirectUriDoc): RedirectUriObject {
  return {
    object: 'redirect_uri',
    id: doc._id,
    uri: doc.uri,
    default: doc.default,
    created_at: iso(doc.created_at),
    updated_at: iso(doc.updated_at),
  };
}

export function presentJwtTemplate(doc: JwtTemplateDoc): JwtTemplateObject {
  return {
    object: 'jwt_template',
    content: doc.content,
    created_at: iso(doc.created_at),
    updated_at: iso(doc.updated_at),
  };
}

export function presentWebhookEndpoint(doc: WebhookEndpointDoc, secret: string): WebhookEndpointObject {
  return {
    object: 'webhook_endpoint',
    id: doc._id,
    endpoint_url: doc.endpoint_url,
    events: doc.events,
    status: doc.status,
    secret,
    rate_limit: doc.rate_limit ?? null,
    ordered: doc.ordered ?? false,
    created_at: iso(doc.created_at),
    updated_at: iso(doc.updated_at),
  };
}

export function presentUser(
  doc: Omit<UserDoc, 'outbox' | 'has_outbox' | 'password_hash' | 'external_key' | 'updated_by'>,
): UserObject {
  return {
    object: 'user',
    id: doc._id,
    email: doc.email,
    first_name: doc.first_name,
    last_name: doc.last_name,
    email_verified: doc.email_verified,
    profile_picture_url: null,
    last_sign_in_at: null,
    external_id: doc.external_id,
    metadata: doc.metadata ?? {},
    created_at: iso(doc.created_at),
    updated_at: iso(doc.updated_at),
  };
}
