// Generated from schemas/ by `npm run schemas:gen`. Do not edit.

/** POST /shrink: compress an upload (already in the blob store under input_key) or the image at source_url into a new output. */
export interface CompressImage {
  output_id: string;
  account_id: string;
  /** Blob-store key of the uploaded bytes; large bodies never travel through Kafka. */
  input_key: null | string;
  source_url: null | string;
  /** Decides the calendar month (UTC) the compression counts in, also when the command is redone later. */
  requested_at: number;
}

/** Deprecated: superseded by RenderOutputV2, whose options are a record. Still consumed during a rolling upgrade; no longer sent. */
export interface RenderOutput {
  output_id: string;
  account_id: string;
  result_key: string;
  /** The validated request options as JSON, without the store credentials. */
  options: string;
  /** Store options with provider credentials, sealed (libs/secrets). */
  store_sealed: null | string;
  requested_at: number;
}

/** POST /output/<id>: resize, convert, preserve and/or store an existing output, with options the gateway has validated. The result bytes go to the blob store under result_key. */
export interface RenderOutputV2 {
  output_id: string;
  account_id: string;
  result_key: string;
  options: {
  resize: null | {
  method: 'scale' | 'fit' | 'cover' | 'thumb';
  width: null | number;
  height: null | number;
};
  /** Candidate media types; the smallest result wins. */
  convert: null | Array<string>;
  background: null | {
  r: number;
  g: number;
  b: number;
};
  preserve: null | Array<'copyright' | 'creation' | 'location'>;
};
  /** The validated store options with provider credentials, sealed (libs/secrets). */
  store_sealed: null | string;
  requested_at: number;
}

/** Compressions were counted for an account: an upload (operation shrink) or an operation on an output. */
export interface ImageCompressed {
  account_id: string;
  output_id: string;
  /** shrink (an upload), output (resize, convert or preserve) or store */
  operation: string;
  compressions: number;
  /** YYYY-MM (UTC) */
  month: string;
  /** The account's compressions this month once these are counted (null from producers before it was added). */
  month_count: null | number;
  /** The account's monthly quota when they were counted. */
  monthly_quota: null | number;
  input_type: string;
  input_size: number;
  output_type: string;
  output_size: number;
  occurred_at: number;
}

/** A branded short domain of the organization, usable by the listed groups. */
export interface AddBrandedDomain {
  organization_id: string;
  domain: string;
  group_guids: Array<string>;
  /** 301, or 302 for links whose destination may change */
  redirect_status: number;
  requested_at: number;
}

/** A user of the organization gets a role in a group (a new group is made when group_name is given). */
export interface AddLinksGroupMember {
  organization_id: string;
  group_guid: string;
  /** Set to create the group. */
  group_name: null | string;
  member_user_id: string;
  /** GROUP_ADMIN, GROUP_EDITOR or GROUP_USER */
  role: string;
  requested_at: number;
}

/** PATCH /v4/groups/{group_guid}/shortlinks: archive (or unarchive) or edit the tags of up to 100 links of a group at once. */
export interface BulkEditShortlinks {
  organization_id: string;
  user_id: string;
  group_guid: string;
  action: 'archive' | 'edit_tags';
  /** For archive: true archives, false brings back. */
  archive: boolean;
  add_tags: Array<string>;
  remove_tags: Array<string>;
  /** domain/hash of each link, at most 100. */
  ids: Array<string>;
  /** The user is a GROUP_USER: only the links they made are edited. */
  own_links_only: boolean;
  requested_at: number;
}

/** POST /v4/qr-codes: a QR code for a short link of the group, or for a long URL (a new short link is made for it). */
export interface CreateQrCode {
  organization_id: string;
  user_id: string;
  /** Chosen by the gateway: a redelivered create finds its code. */
  qrcode_id: string;
  group_guid: string;
  shortlink_id: null | string;
  /** Validated by the gateway; with it, a new short link on `domain`. */
  long_url: null | string;
  /** The domain of a new short link. */
  domain: string;
  title: null | string;
  /** JSON, validated by the gateway. */
  render_customizations: string;
  is_customized: boolean;
  gs1_values: null | Array<{
  key: string;
  value: string;
}>;
  archived: boolean;
  expiration_at: null | number;
  tags: Array<string>;
  requested_at: number;
}

/** POST /v4/shorten and POST /v4/shortlinks: a short link in a group, or the group's existing one for the same long URL unless force_new_link. */
export interface CreateShortlink {
  organization_id: string;
  /** The acting user (whose role in the group was checked). */
  user_id: string;
  group_guid: string;
  domain: string;
  /** Validated and normalised by the gateway. */
  long_url: string;
  /** A custom back-half (branded domains only). */
  keyword: null | string;
  title: null | string;
  tags: Array<string>;
  deeplinks: Array<{
  app_uri_path: string;
  install_url: string;
  app_guid: string;
  os: string;
  install_type: string;
  brand_guid: string;
}>;
  expiration_at: null | number;
  force_new_link: boolean;
  requested_at: number;
}

/** DELETE /v4/qr-codes/{qrcode_id}: only a code never redirected and not of a custom link; its short link goes too. */
export interface DeleteQrCode {
  organization_id: string;
  user_id: string;
  qrcode_id: string;
  requested_at: number;
}

/** DELETE /v4/shortlinks/{shortlink}: the link stops redirecting and leaves every list. */
export interface DeleteShortlink {
  organization_id: string;
  /** The acting user (whose role in the group was checked). */
  user_id: string;
  id: string;
  requested_at: number;
}

/** DELETE /v4/webhooks/{webhook_guid}: no event reaches it afterwards. */
export interface DeleteWebhook {
  organization_id: string;
  webhook_guid: string;
  requested_at: number;
}

/** POST /v4/campaigns (create) and PATCH /v4/campaigns/{campaign_guid}: each member null leaves that field as it is. */
export interface SaveCampaign {
  organization_id: string;
  user_id: string;
  /** Chosen by the gateway on create, so that a redelivered create makes one campaign. */
  campaign_guid: string;
  create: boolean;
  group_guid: string;
  name: null | string;
  description: null | string;
  channel_guids: null | Array<string>;
  requested_at: number;
}

/** POST /v4/channels (create) and PATCH /v4/channels/{channel_guid}: each member null leaves that field as it is. */
export interface SaveChannel {
  organization_id: string;
  user_id: string;
  /** Chosen by the gateway on create, so that a redelivered create makes one channel. */
  channel_guid: string;
  create: boolean;
  group_guid: string;
  name: null | string;
  /** The links in the channel (replaces the list); a campaign_guid also tags the link with that campaign. */
  shortlinks: null | Array<{
  campaign_guid: string;
  shortlink_id: string;
}>;
  requested_at: number;
}

/** An uploaded logo image for QR codes (render_customizations.logo.image_guid), checked by the gateway (type, size, no scripts). */
export interface SaveQrLogo {
  organization_id: string;
  user_id: string;
  image_guid: string;
  media_type: string;
  width: number;
  height: number;
  bytes: Buffer;
  requested_at: number;
}

/** POST /v4/webhooks (create) and PATCH /v4/webhooks/{webhook_guid}: each member null leaves that field as it is. */
export interface SaveWebhook {
  organization_id: string;
  user_id: string;
  /** Chosen by the gateway on create, so that a redelivered create makes one webhook. */
  webhook_guid: string;
  create: boolean;
  name: null | string;
  event: null | string;
  url: null | string;
  is_active: null | boolean;
  /** The empty string makes the webhook organization-wide again. */
  group_guid: null | string;
  /** The empty string removes the OAuth client credentials. */
  oauth_url: null | string;
  client_id: null | string;
  /** Sealed by the gateway with the platform's sealing key; never plaintext on a topic. */
  sealed_client_secret: null | string;
  fetch_tags: null | boolean;
  /** Deliveries per second at most to the webhook's URL, 1 to 10000. */
  rate_limit: null | number;
  /** rate_limit was sent as null: the webhook's deliveries are no longer limited. */
  clear_rate_limit: boolean;
  /** Whether the events about one link (its clicks too) reach the URL in the order they happened. */
  ordered: null | boolean;
  requested_at: number;
}

/** Features enabled per organization by an operator (the CLI), such as static QR codes. */
export interface SetLinksOrganizationFeatures {
  organization_id: string;
  static_qr_codes: null | boolean;
  requested_at: number;
}

/** cli keys create links: an organization's default group, with its first user as the group's admin. */
export interface SetUpLinksOrganization {
  organization_id: string;
  group_guid: string;
  group_name: string;
  admin_user_id: string;
  requested_at: number;
}

/** PATCH /v4/groups/{group_guid} and PATCH /v4/groups/{group_guid}/preferences: each member null leaves that field as it is. */
export interface UpdateLinksGroup {
  organization_id: string;
  /** The acting user (a GROUP_ADMIN of the group, checked by the gateway). */
  user_id: string;
  group_guid: string;
  name: null | string;
  /** The branded domains of the organization the group may use (replaces the list). */
  bsds: null | Array<string>;
  /** The domain a shorten without domain uses. */
  domain_preference: null | string;
  clear_domain_preference: boolean;
  /** The platform's default short domain (always allowed as a preference). */
  default_domain: string;
  requested_at: number;
}

/** PATCH /v4/user: the user's display name and default group; each member null leaves that field as it is. */
export interface UpdateLinksUser {
  organization_id: string;
  user_id: string;
  name: null | string;
  /** A group the user is a member of. */
  default_group_guid: null | string;
  requested_at: number;
}

/** PATCH /v4/qr-codes/{qrcode_id}: each member null leaves that field as it is. */
export interface UpdateQrCode {
  organization_id: string;
  user_id: string;
  qrcode_id: string;
  title: null | string;
  /** JSON, the full set, validated by the gateway. */
  render_customizations: null | string;
  is_customized: null | boolean;
  archived: null | boolean;
  expiration_at: null | number;
  /** expiration_at null or empty in the body: the short link no longer expires. */
  clear_expiration: boolean;
  tags: null | Array<string>;
  requested_at: number;
}

/** PATCH /v4/shortlinks/{shortlink}: each member null leaves that field as it is. */
export interface UpdateShortlink {
  organization_id: string;
  /** The acting user (whose role in the group was checked). */
  user_id: string;
  /** domain/hash */
  id: string;
  title: null | string;
  archived: null | boolean;
  tags: null | Array<string>;
  long_url: null | string;
  expiration_at: null | number;
  /** expiration_at was sent as null or empty: the link stops expiring. */
  clear_expiration: boolean;
  requested_at: number;
}

/** POST /v4/webhooks/{webhook_guid}/verify: one ping event to the webhook through the delivery layer. */
export interface VerifyWebhook {
  organization_id: string;
  webhook_guid: string;
  /** Chosen by the gateway: a redelivered command sends the same ping once. */
  ping_id: string;
  requested_at: number;
}

/** A short link as it is after a change (edit, archive, new destination, deletion). Redirectors evict it on this. */
export interface ShortlinkChanged {
  /** domain/hash */
  id: string;
  organization_id: string;
  group_guid: string;
  long_url: string;
  title: null | string;
  tags: Array<string>;
  archived: boolean;
  /** A keyword on a branded domain. */
  custom: boolean;
  redirect_status: number;
  expiration_at: null | number;
  deleted: boolean;
  occurred_at: number;
}

/** One redirect answered by a redirector (Bitly's decode). Recorded without waiting for Kafka; click_id is unique per redirect, so a replayed batch is recognisable. */
export interface ShortlinkClicked {
  /** <redirector replica>:<boot>:<sequence> */
  click_id: string;
  /** The short link, domain/hash. */
  id: string;
  organization_id: string;
  group_guid: string;
  /** The destination it was sent to. */
  long_url: string;
  clicked_at: number;
  referrer: null | string;
  user_agent: null | string;
  /** By the trusted-proxy setting. */
  client_ip: null | string;
  /** The user agent is a known crawler or preview fetcher. */
  bot: boolean;
  /** A scan of the link's QR code (the code's URL carries a marker). */
  qr: boolean;
  /** The QR code scanned (one of the link's), when qr. */
  qrcode_id: null | string;
  /** The query of the short URL, passed on to the destination (without '?'; the QR marker of a scan left out). */
  passed_params: string;
}

/** A new short link (a shorten that returned an existing link is not one). */
export interface ShortlinkCreated {
  /** domain/hash */
  id: string;
  organization_id: string;
  group_guid: string;
  long_url: string;
  title: null | string;
  tags: Array<string>;
  archived: boolean;
  /** A keyword on a branded domain. */
  custom: boolean;
  redirect_status: number;
  expiration_at: null | number;
  /** The login of the user who made it. */
  created_by: string;
  occurred_at: number;
}

/** PUT /notifications/inbox/mark-all-as-read: every unread notification of the caller, up to requested_at. */
export interface MarkAllInboxNotificationsRead {
  deployment_id: string;
  /** The caller (a user of the deployment). */
  user_id: string;
  requested_at: number;
}

/** POST /notifications/custom: the custom template to the caller, through their enabled methods. */
export interface SendCustomNotification {
  deployment_id: string;
  /** The caller (a user of the deployment). */
  user_id: string;
  title: string;
  message: string;
  requested_at: number;
}

/** POST /notifications/test: the test template to the caller, through every enabled method. */
export interface SendTestNotification {
  deployment_id: string;
  /** The caller (a user of the deployment). */
  user_id: string;
  requested_at: number;
}

/** PUT /notifications/inbox/{id}/read-status: sets or clears read_at of one of the caller's notifications. */
export interface SetInboxNotificationReadStatus {
  deployment_id: string;
  /** The caller (a user of the deployment). */
  user_id: string;
  notification_id: string;
  is_read: boolean;
  requested_at: number;
}

/** PUT /users/{user}/notifications/preferences: templates the user disables (true) or enables again (false). */
export interface UpdateNotificationPreferences {
  deployment_id: string;
  /** The user whose preferences change (the caller or, for an owner, another user). */
  user_id: string;
  template_disabled_map: Record<string, boolean>;
  requested_at: number;
}

/** PUT /notifications/settings by an owner: pausing stops every dispatch of the deployment; unpausing sends what waited, in order. */
export interface UpdateNotificationSettings {
  deployment_id: string;
  /** The caller (a user of the deployment). */
  user_id: string;
  notifier_paused: boolean;
  requested_at: number;
}

/** A notification reached a user's inbox. Drives the watch streams of every gateway replica. */
export interface InboxNotificationCreated {
  deployment_id: string;
  user_id: string;
  notification: {
  /** UUIDv7: ordered by creation. */
  id: string;
  template_id: string;
  targets: Array<string>;
  title: string;
  content: string;
  icon: string;
  actions: Array<{
  label: string;
  url: string;
}>;
  created_at: number;
};
  /** The user's unread notifications once this one is in. */
  unread_count: number;
  occurred_at: number;
}

/** One notification was marked read (read_at set) or unread (read_at null). */
export interface InboxNotificationReadStatusChanged {
  deployment_id: string;
  user_id: string;
  notification_id: string;
  read_at: null | number;
  unread_count: number;
  occurred_at: number;
}

/** Every notification of the user created up to read_at is read. */
export interface InboxNotificationsMarkedRead {
  deployment_id: string;
  user_id: string;
  read_at: number;
  /** How many were unread. */
  marked: number;
  occurred_at: number;
}

/** One message of a notification left through one method (or was given up on). */
export interface NotificationDispatched {
  deployment_id: string;
  user_id: string;
  message_id: string;
  /** Shared by the messages of one notification (and its inbox entry's id). */
  notification_id: string;
  template_id: string;
  /** inbox, smtp or webhook */
  method: string;
  /** sent, or failed (attempts used up or nowhere to send) */
  outcome: string;
  attempts: number;
  error: null | string;
  occurred_at: number;
}

/** A deployment's notifier was paused or resumed. */
export interface NotificationSettingsChanged {
  deployment_id: string;
  /** The owner who changed it. */
  user_id: string;
  notifier_paused: boolean;
  occurred_at: number;
}

/** A developer registers an OAuth client on the developer settings page; it starts pending review. */
export interface CreateClient {
  client_id: string;
  owner_user_id: string;
  owner_email: string;
  name: string;
  logo_url: null | string;
  website_url: null | string;
  purpose: string;
  redirect_uris: Array<string>;
  scopes: Array<string>;
  kind: 'confidential' | 'public';
}

/** Token endpoint, grant_type=authorization_code. Secrets travel as keyed hashes and the PKCE verifier as its S256 digest. */
export interface ExchangeAuthorizationCode {
  client_id: string;
  client_secret_hash: null | string;
  code_hash: string;
  redirect_uri: null | string;
  code_verifier_digest: null | string;
  /** Hash of the refresh token the gateway will hand out on success. */
  refresh_token_hash: string;
  requested_at: number;
}

/** Adds a secret to a confidential client (at most 2 active). Only the keyed hash travels; the page shows the secret once. */
export interface GenerateClientSecret {
  client_id: string;
  owner_user_id: string;
  secret_id: string;
  secret_hash: string;
  /** The last characters, to tell secrets apart on the page. */
  hint: string;
}

/** The user allowed the client on the consent page. The code itself stays with the browser redirect; only its hash is stored. */
export interface IssueAuthorizationCode {
  code_hash: string;
  client_id: string;
  user_id: string;
  redirect_uri: string;
  scopes: Array<string>;
  code_challenge: null | string;
  expires_at: number;
}

/** Token endpoint, grant_type=refresh_token: rotates the refresh token; a reused one revokes its grant. */
export interface RefreshAccessToken {
  client_id: string;
  client_secret_hash: null | string;
  refresh_token_hash: string;
  new_refresh_token_hash: string;
  requested_at: number;
}

/** An administrator accepts or rejects a pending client. */
export interface ReviewClient {
  client_id: string;
  reviewer_user_id: string;
  decision: 'accepted' | 'rejected';
  reason: null | string;
}

/** Revokes one secret of a client, immediately. */
export interface RevokeClientSecret {
  client_id: string;
  owner_user_id: string;
  secret_id: string;
}

/** RFC 7009 revocation by the client: the grant a refresh or access token belongs to, and every token of it. */
export interface RevokeGrant {
  client_id: string;
  client_secret_hash: null | string;
  refresh_token_hash: null | string;
  grant_id: null | string;
  reason: string;
}

/** The owner edits a client; reviewed fields send an accepted client back to pending (the spec's table). */
export interface UpdateClient {
  client_id: string;
  owner_user_id: string;
  name: string;
  logo_url: null | string;
  website_url: null | string;
  purpose: string;
  redirect_uris: Array<string>;
  scopes: Array<string>;
}

/** An administrator accepted a client; the owner is e-mailed. */
export interface ClientAccepted {
  client_id: string;
  owner_user_id: string;
  owner_email: string;
  name: string;
  reviewer_user_id: string;
  occurred_at: number;
  /** What the reviewer wrote with the decision, if anything. */
  reason: null | string;
}

/** The owner changed a client. */
export interface ClientChanged {
  client_id: string;
  owner_user_id: string;
  changed_fields: Array<string>;
  scopes: Array<string>;
  status: string;
  legacy: boolean;
  occurred_at: number;
}

/** A client was registered (status pending). */
export interface ClientCreated {
  client_id: string;
  owner_user_id: string;
  name: string;
  kind: string;
  scopes: Array<string>;
  redirect_uris: Array<string>;
  occurred_at: number;
}

/** An administrator rejected a client; the owner is e-mailed. */
export interface ClientRejected {
  client_id: string;
  owner_user_id: string;
  owner_email: string;
  name: string;
  reviewer_user_id: string;
  reason: null | string;
  occurred_at: number;
}

/** A client secret was generated (the event never carries the secret). */
export interface ClientSecretGenerated {
  client_id: string;
  owner_user_id: string;
  secret_id: string;
  hint: string;
  occurred_at: number;
}

/** A client secret was revoked, with immediate effect. */
export interface ClientSecretRevoked {
  client_id: string;
  owner_user_id: string;
  secret_id: string;
  occurred_at: number;
}

/** A client entered review: at creation, or after a change that needs re-review. */
export interface ClientSubmittedForReview {
  client_id: string;
  owner_user_id: string;
  name: string;
  reason: string;
  occurred_at: number;
}

/** A grant and every token of it were revoked. */
export interface GrantRevoked {
  client_id: string;
  user_id: string;
  grant_id: string;
  reason: string;
  occurred_at: number;
}

/** Tokens were issued to a client for a user (code exchange or refresh); never the tokens themselves. */
export interface TokenIssued {
  client_id: string;
  user_id: string;
  grant_id: string;
  grant_type: string;
  scopes: Array<string>;
  legacy: boolean;
  occurred_at: number;
}

/** The signed-in user accepts an invite link (the web app). */
export interface AcceptTeamInvite {
  /** The authorizing user of the access token. */
  actor_user_id: string;
  token: string;
  requested_at: number;
}

/** The operator adds a user to an organization (cli orgs add-member); organization memberships have no public endpoint. */
export interface AddOrganizationMember {
  org_id: number;
  user_id: string;
  role: 'MEMBER' | 'ADMIN' | 'OWNER';
  requested_at: number;
}

/** POST …/memberships: a user becomes a member of a team. */
export interface AddTeamMember {
  /** The authorizing user of the access token. */
  actor_user_id: string;
  /** The organization in whose path the request was made (/v2/organizations/{orgId}/…). */
  org_id: null | number;
  team_id: number;
  user_id: string;
  /** MEMBER when absent. */
  role: null | 'MEMBER' | 'ADMIN' | 'OWNER';
  /** false when absent. */
  accepted: null | boolean;
  requested_at: number;
}

/** Deprecated: superseded by CreateBooking, CancelBooking and RescheduleBooking. Still consumed (and answered) so that a gateway of the previous release keeps working during a rolling upgrade; no longer sent. */
export interface BookingCommand {
  /** create | cancel | reschedule */
  action: string;
  /** The authorizing user of the access token; null for the public booking endpoints. */
  actor_user_id: null | string;
  /** The id of the entity acted on (absent for creations). */
  target_id: null | string;
  /** The team (or organization) in whose path the request was made. */
  scope_team_id: null | number;
  /** The organization in whose path the request was made. */
  scope_org_id: null | number;
  /** The request body as validated by the gateway (JSON); the worker validates it again. */
  payload: string;
  requested_at: number;
}

/** POST /v2/bookings/{uid}/cancel (public): cancel an accepted booking and free its hosts' time. */
export interface CancelBooking {
  booking_uid: string;
  cancellation_reason: null | string;
  requested_at: number;
}

/** POST /v2/bookings (public): book an event type for an attendee. The gateway has checked every field's form; the worker places the time. */
export interface CreateBooking {
  event_type_id: number;
  /** The requested start as the client gave it (ISO 8601 with an offset). */
  start: string;
  /** When given, it must be the event type's length. */
  length_in_minutes: null | number;
  attendee: {
  name: string;
  /** Lower-cased. */
  email: string;
  /** An IANA time zone. */
  time_zone: string;
};
  requested_at: number;
}

/** POST /v2/event-types (personal: team_id null) or a team's event types. */
export interface CreateEventType {
  /** The authorizing user of the access token. */
  actor_user_id: string;
  /** The organization in whose path the request was made (/v2/organizations/{orgId}/…). */
  org_id: null | number;
  /** Null for a personal event type, hosted by its owner. */
  team_id: null | number;
  title: string;
  /** Derived from the title when absent. */
  slug: null | string;
  description: null | string;
  length_in_minutes: number;
  /** COLLECTIVE when absent. */
  scheduling_type: null | 'COLLECTIVE' | 'ROUND_ROBIN';
  /** Team event types: accepted members; absent means every member. */
  host_user_ids: null | Array<string>;
  requested_at: number;
}

/** The operator creates an organization (cli orgs create), owned by an existing user; the real service too creates organizations outside its public API. */
export interface CreateOrganization {
  name: string;
  /** Derived from the name when absent. */
  slug: null | string;
  owner_user_id: string;
  /** An IANA time zone; Europe/London when absent. */
  time_zone: null | string;
  requested_at: number;
}

/** POST /v2/schedules, or an organization member's: a schedule (a user's first is the default). */
export interface CreateSchedule {
  /** The authorizing user of the access token. */
  actor_user_id: string;
  /** The organization in whose path the request was made (/v2/organizations/{orgId}/…). */
  org_id: null | number;
  user_id: string;
  name: string;
  time_zone: null | string;
  availability: null | Array<{
  days: Array<string>;
  start_time: string;
  end_time: string;
}>;
  overrides: null | Array<{
  date: string;
  start_time: string;
  end_time: string;
}>;
  is_default: null | boolean;
  requested_at: number;
}

/** POST /v2/teams, or /v2/organizations/{orgId}/teams: a team (a standalone team is owned by its creator). */
export interface CreateTeam {
  /** The authorizing user of the access token. */
  actor_user_id: string;
  /** The organization in whose path the request was made (/v2/organizations/{orgId}/…). */
  org_id: null | number;
  name: string;
  /** Derived from the name when absent. */
  slug: null | string;
  logo_url: null | string;
  bio: null | string;
  time_zone: null | string;
  week_start: null | string;
  requested_at: number;
}

/** POST …/invite: an invite link to a team (only its token's hash is kept). */
export interface CreateTeamInvite {
  /** The authorizing user of the access token. */
  actor_user_id: string;
  /** The organization in whose path the request was made (/v2/organizations/{orgId}/…). */
  org_id: null | number;
  team_id: number;
  requested_at: number;
}

/** DELETE an event type. */
export interface DeleteEventType {
  /** The authorizing user of the access token. */
  actor_user_id: string;
  /** The organization in whose path the request was made (/v2/organizations/{orgId}/…). */
  org_id: null | number;
  team_id: null | number;
  event_type_id: number;
  requested_at: number;
}

/** DELETE a schedule (another becomes the default). */
export interface DeleteSchedule {
  /** The authorizing user of the access token. */
  actor_user_id: string;
  /** The organization in whose path the request was made (/v2/organizations/{orgId}/…). */
  org_id: null | number;
  user_id: string;
  schedule_id: number;
  requested_at: number;
}

/** DELETE a team. */
export interface DeleteTeam {
  /** The authorizing user of the access token. */
  actor_user_id: string;
  /** The organization in whose path the request was made (/v2/organizations/{orgId}/…). */
  org_id: null | number;
  team_id: number;
  requested_at: number;
}

/** Deprecated: superseded by one record per intent (see the catalogue). Still consumed (and answered) so that a gateway of the previous release keeps working during a rolling upgrade; no longer sent. */
export interface EventTypeCommand {
  /** create | update | delete | phone_call */
  action: string;
  /** The authorizing user of the access token; null for the public booking endpoints. */
  actor_user_id: null | string;
  /** The id of the entity acted on (absent for creations). */
  target_id: null | string;
  /** The team (or organization) in whose path the request was made. */
  scope_team_id: null | number;
  /** The organization in whose path the request was made. */
  scope_org_id: null | number;
  /** The request body as validated by the gateway (JSON); the worker validates it again. */
  payload: string;
  requested_at: number;
}

/** Deprecated: superseded by one record per intent (see the catalogue). Still consumed (and answered) so that a gateway of the previous release keeps working during a rolling upgrade; no longer sent. */
export interface MembershipCommand {
  /** create | update | delete | accept_invite (the actor joins the team of an invite token) */
  action: string;
  /** The authorizing user of the access token; null for the public booking endpoints. */
  actor_user_id: null | string;
  /** The id of the entity acted on (absent for creations). */
  target_id: null | string;
  /** The team (or organization) in whose path the request was made. */
  scope_team_id: null | number;
  /** The organization in whose path the request was made. */
  scope_org_id: null | number;
  /** The request body as validated by the gateway (JSON); the worker validates it again. */
  payload: string;
  requested_at: number;
}

/** DELETE …/memberships/{membershipId}. */
export interface RemoveTeamMember {
  /** The authorizing user of the access token. */
  actor_user_id: string;
  /** The organization in whose path the request was made (/v2/organizations/{orgId}/…). */
  org_id: null | number;
  team_id: number;
  membership_id: number;
  requested_at: number;
}

/** POST …/event-types/{eventTypeId}/create-phone-call: an AI phone call that books the event type (the telephony integration places it). */
export interface RequestPhoneCall {
  /** The authorizing user of the access token. */
  actor_user_id: string;
  /** The organization in whose path the request was made (/v2/organizations/{orgId}/…). */
  org_id: null | number;
  team_id: number;
  event_type_id: number;
  your_phone_number: string;
  number_to_call: string;
  template_type: null | string;
  /** schedulerName, guestName, guestEmail, guestCompany, beginMessage, generalPrompt. */
  details: Record<string, string>;
  requested_at: number;
}

/** POST /v2/bookings/{uid}/reschedule (public): book the same event type at a new time and cancel the old booking, which points to the new one. */
export interface RescheduleBooking {
  booking_uid: string;
  /** The new start as the client gave it (ISO 8601 with an offset). */
  start: string;
  rescheduling_reason: null | string;
  requested_at: number;
}

/** Deprecated: superseded by one record per intent (see the catalogue). Still consumed (and answered) so that a gateway of the previous release keeps working during a rolling upgrade; no longer sent. */
export interface ScheduleCommand {
  /** create | update | delete */
  action: string;
  /** The authorizing user of the access token; null for the public booking endpoints. */
  actor_user_id: null | string;
  /** The id of the entity acted on (absent for creations). */
  target_id: null | string;
  /** The user whose schedules these are. */
  target_user_id: null | string;
  /** The team (or organization) in whose path the request was made. */
  scope_team_id: null | number;
  /** The organization in whose path the request was made. */
  scope_org_id: null | number;
  /** The request body as validated by the gateway (JSON); the worker validates it again. */
  payload: string;
  requested_at: number;
}

/** Deprecated: superseded by one record per intent (see the catalogue). Still consumed (and answered) so that a gateway of the previous release keeps working during a rolling upgrade; no longer sent. */
export interface TeamCommand {
  /** create | update | delete | invite */
  action: string;
  /** The authorizing user of the access token; null for the public booking endpoints. */
  actor_user_id: null | string;
  /** The id of the entity acted on (absent for creations). */
  target_id: null | string;
  /** The team (or organization) in whose path the request was made. */
  scope_team_id: null | number;
  /** The organization in whose path the request was made. */
  scope_org_id: null | number;
  /** The request body as validated by the gateway (JSON); the worker validates it again. */
  payload: string;
  requested_at: number;
}

/** PATCH an event type (null leaves a field as it is). */
export interface UpdateEventType {
  /** The authorizing user of the access token. */
  actor_user_id: string;
  /** The organization in whose path the request was made (/v2/organizations/{orgId}/…). */
  org_id: null | number;
  team_id: null | number;
  event_type_id: number;
  title: null | string;
  slug: null | string;
  description: null | string;
  length_in_minutes: null | number;
  scheduling_type: null | 'COLLECTIVE' | 'ROUND_ROBIN';
  host_user_ids: null | Array<string>;
  requested_at: number;
}

/** PATCH a schedule (null leaves a field as it is). */
export interface UpdateSchedule {
  /** The authorizing user of the access token. */
  actor_user_id: string;
  /** The organization in whose path the request was made (/v2/organizations/{orgId}/…). */
  org_id: null | number;
  user_id: string;
  schedule_id: number;
  name: null | string;
  time_zone: null | string;
  availability: null | Array<{
  days: Array<string>;
  start_time: string;
  end_time: string;
}>;
  overrides: null | Array<{
  date: string;
  start_time: string;
  end_time: string;
}>;
  is_default: null | boolean;
  requested_at: number;
}

/** PATCH a team: null leaves a field as it is; `cleared` names the fields set to null. */
export interface UpdateTeam {
  /** The authorizing user of the access token. */
  actor_user_id: string;
  /** The organization in whose path the request was made (/v2/organizations/{orgId}/…). */
  org_id: null | number;
  team_id: number;
  name: null | string;
  slug: null | string;
  logo_url: null | string;
  bio: null | string;
  time_zone: null | string;
  week_start: null | string;
  /** logo_url and/or bio, set to null. */
  cleared: Array<string>;
  requested_at: number;
}

/** PATCH …/memberships/{membershipId}: role and/or acceptance (null leaves it). */
export interface UpdateTeamMembership {
  /** The authorizing user of the access token. */
  actor_user_id: string;
  /** The organization in whose path the request was made (/v2/organizations/{orgId}/…). */
  org_id: null | number;
  team_id: number;
  membership_id: number;
  role: null | 'MEMBER' | 'ADMIN' | 'OWNER';
  accepted: null | boolean;
  requested_at: number;
}

/** A booking was cancelled by an attendee or host. */
export interface BookingCancelled {
  booking_uid: string;
  booking_id: number;
  event_type_id: number;
  team_id: null | number;
  host_user_ids: Array<string>;
  reason: null | string;
  occurred_at: number;
}

/** A booking was accepted (a new one, or the new booking of a reschedule). */
export interface BookingCreated {
  booking_uid: string;
  booking_id: number;
  event_type_id: number;
  team_id: null | number;
  host_user_ids: Array<string>;
  attendee_email: string;
  start: number;
  end: number;
  rescheduled_from_uid: null | string;
  occurred_at: number;
}

/** A booking was moved: the old one is cancelled and linked to the new one (which also gets BookingCreated). */
export interface BookingRescheduled {
  booking_uid: string;
  new_booking_uid: string;
  event_type_id: number;
  team_id: null | number;
  new_start: number;
  new_end: number;
  reason: null | string;
  occurred_at: number;
}

/** A team event type was created, changed or deleted. */
export interface EventTypeChanged {
  id: number;
  /** created | updated | deleted */
  change: string;
  team_id: null | number;
  user_id: null | string;
  actor_user_id: null | string;
  /** The entity after the change as the API shows it (JSON); before it, for deleted. */
  snapshot: string;
  occurred_at: number;
}

/** A membership was created (by adding a member or accepting an invite), changed (role, accepted) or deleted. */
export interface MembershipChanged {
  id: number;
  /** created | updated | deleted */
  change: string;
  team_id: null | number;
  user_id: null | string;
  actor_user_id: null | string;
  /** The entity after the change as the API shows it (JSON); before it, for deleted. */
  snapshot: string;
  occurred_at: number;
}

/** POST .../event-types/:id/create-phone-call: an AI agent should call a guest to book this event type. Consumed by the telephony integration, which places the call. */
export interface PhoneCallRequested {
  call_id: string;
  event_type_id: number;
  team_id: number;
  actor_user_id: string;
  from_number: string;
  to_number: string;
  template_type: string;
  /** Scheduler and guest names, begin message and prompt (JSON). */
  details: string;
  occurred_at: number;
}

/** A user's schedule was created, changed or deleted. */
export interface ScheduleChanged {
  id: number;
  /** created | updated | deleted */
  change: string;
  team_id: null | number;
  user_id: null | string;
  actor_user_id: null | string;
  /** The entity after the change as the API shows it (JSON); before it, for deleted. */
  snapshot: string;
  occurred_at: number;
}

/** A team or organization was created, changed or deleted. */
export interface TeamChanged {
  id: number;
  /** created | updated | deleted */
  change: string;
  team_id: null | number;
  user_id: null | string;
  actor_user_id: null | string;
  /** The entity after the change as the API shows it (JSON); before it, for deleted. */
  snapshot: string;
  occurred_at: number;
}

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
  /** Deliveries per second to this endpoint at most (1..10000); null: no limit of its own. */
  rate_limit: null | number;
  /** Events about the same aggregate (a user) reach the endpoint in the order they happened. */
  ordered: boolean;
}

export interface DeleteUser {
  environment_id: string;
  user_id: string;
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

/** Changes the members that are not null; the rest stay as they are. */
export interface UpdateUser {
  environment_id: string;
  user_id: string;
  email: null | string;
  first_name: null | string;
  last_name: null | string;
  email_verified: null | boolean;
  external_id: null | string;
  /** Merged into the user's metadata; a key whose value is null is removed. */
  metadata: null | Record<string, null | string>;
  /** scrypt hash computed at the gateway; the password itself never travels. */
  password_hash: null | string;
}

/** Partial update: a null field is left as it is. */
export interface UpdateWebhookEndpoint {
  environment_id: string;
  webhook_endpoint_id: string;
  endpoint_url: null | string;
  events: null | Array<string>;
  status: null | string;
  /** The endpoint's new limit in deliveries per second (1..10000); null: see clear_rate_limit. */
  rate_limit: null | number;
  /** rate_limit was sent as null: the endpoint no longer has a limit of its own. */
  clear_rate_limit: boolean;
  ordered: null | boolean;
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

/** A user was deleted (webhook event user.deleted). The user as it was when deleted. */
export interface UserDeleted {
  environment_id: string;
  user_id: string;
  email: string;
  first_name: null | string;
  last_name: null | string;
  email_verified: boolean;
  external_id: null | string;
  metadata: Record<string, string>;
  created_at: number;
  deleted_at: number;
}

/** A user's profile changed (webhook event user.updated). The user as it is after the change. */
export interface UserUpdated {
  environment_id: string;
  user_id: string;
  email: string;
  first_name: null | string;
  last_name: null | string;
  email_verified: boolean;
  external_id: null | string;
  metadata: Record<string, string>;
  created_at: number;
  updated_at: number;
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
  /** Deliveries per second to this target at most (the endpoint's own limit); null: the dispatcher's default. Deliveries over the limit wait; none is dropped. */
  rate_limit: null | number;
};
  event_id: string;
  event_type: string;
  /** The exact JSON body to POST. */
  payload: string;
  requested_at: number;
  /** When set, the target receives the deliveries that share this key (an aggregate: the user, the link) in the order they were requested: a later one waits until the earlier one is delivered or has given up. */
  ordering_key: null | string;
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

/** A target that was answering failed an attempt: the first failure of a streak (a success ends the streak). Producers alert the owner. */
export interface TargetFailing {
  producer: string;
  tenant_id: string;
  target_id: string;
  delivery_id: string;
  last_status: null | number;
  error: null | string;
  occurred_at: number;
}

export interface MessageTypes {
  'platform.images.commands.CompressImage': CompressImage;
  'platform.images.commands.RenderOutput': RenderOutput;
  'platform.images.commands.RenderOutputV2': RenderOutputV2;
  'platform.images.events.ImageCompressed': ImageCompressed;
  'platform.links.commands.AddBrandedDomain': AddBrandedDomain;
  'platform.links.commands.AddLinksGroupMember': AddLinksGroupMember;
  'platform.links.commands.BulkEditShortlinks': BulkEditShortlinks;
  'platform.links.commands.CreateQrCode': CreateQrCode;
  'platform.links.commands.CreateShortlink': CreateShortlink;
  'platform.links.commands.DeleteQrCode': DeleteQrCode;
  'platform.links.commands.DeleteShortlink': DeleteShortlink;
  'platform.links.commands.DeleteWebhook': DeleteWebhook;
  'platform.links.commands.SaveCampaign': SaveCampaign;
  'platform.links.commands.SaveChannel': SaveChannel;
  'platform.links.commands.SaveQrLogo': SaveQrLogo;
  'platform.links.commands.SaveWebhook': SaveWebhook;
  'platform.links.commands.SetLinksOrganizationFeatures': SetLinksOrganizationFeatures;
  'platform.links.commands.SetUpLinksOrganization': SetUpLinksOrganization;
  'platform.links.commands.UpdateLinksGroup': UpdateLinksGroup;
  'platform.links.commands.UpdateLinksUser': UpdateLinksUser;
  'platform.links.commands.UpdateQrCode': UpdateQrCode;
  'platform.links.commands.UpdateShortlink': UpdateShortlink;
  'platform.links.commands.VerifyWebhook': VerifyWebhook;
  'platform.links.events.ShortlinkChanged': ShortlinkChanged;
  'platform.links.clicks.ShortlinkClicked': ShortlinkClicked;
  'platform.links.events.ShortlinkCreated': ShortlinkCreated;
  'platform.notifications.commands.MarkAllInboxNotificationsRead': MarkAllInboxNotificationsRead;
  'platform.notifications.commands.SendCustomNotification': SendCustomNotification;
  'platform.notifications.commands.SendTestNotification': SendTestNotification;
  'platform.notifications.commands.SetInboxNotificationReadStatus': SetInboxNotificationReadStatus;
  'platform.notifications.commands.UpdateNotificationPreferences': UpdateNotificationPreferences;
  'platform.notifications.commands.UpdateNotificationSettings': UpdateNotificationSettings;
  'platform.notifications.events.InboxNotificationCreated': InboxNotificationCreated;
  'platform.notifications.events.InboxNotificationReadStatusChanged': InboxNotificationReadStatusChanged;
  'platform.notifications.events.InboxNotificationsMarkedRead': InboxNotificationsMarkedRead;
  'platform.notifications.events.NotificationDispatched': NotificationDispatched;
  'platform.notifications.events.NotificationSettingsChanged': NotificationSettingsChanged;
  'platform.oauth.commands.CreateClient': CreateClient;
  'platform.oauth.commands.ExchangeAuthorizationCode': ExchangeAuthorizationCode;
  'platform.oauth.commands.GenerateClientSecret': GenerateClientSecret;
  'platform.oauth.commands.IssueAuthorizationCode': IssueAuthorizationCode;
  'platform.oauth.commands.RefreshAccessToken': RefreshAccessToken;
  'platform.oauth.commands.ReviewClient': ReviewClient;
  'platform.oauth.commands.RevokeClientSecret': RevokeClientSecret;
  'platform.oauth.commands.RevokeGrant': RevokeGrant;
  'platform.oauth.commands.UpdateClient': UpdateClient;
  'platform.oauth.events.ClientAccepted': ClientAccepted;
  'platform.oauth.events.ClientChanged': ClientChanged;
  'platform.oauth.events.ClientCreated': ClientCreated;
  'platform.oauth.events.ClientRejected': ClientRejected;
  'platform.oauth.events.ClientSecretGenerated': ClientSecretGenerated;
  'platform.oauth.events.ClientSecretRevoked': ClientSecretRevoked;
  'platform.oauth.events.ClientSubmittedForReview': ClientSubmittedForReview;
  'platform.oauth.events.GrantRevoked': GrantRevoked;
  'platform.oauth.events.TokenIssued': TokenIssued;
  'platform.scheduling.commands.AcceptTeamInvite': AcceptTeamInvite;
  'platform.scheduling.commands.AddOrganizationMember': AddOrganizationMember;
  'platform.scheduling.commands.AddTeamMember': AddTeamMember;
  'platform.scheduling.commands.BookingCommand': BookingCommand;
  'platform.scheduling.commands.CancelBooking': CancelBooking;
  'platform.scheduling.commands.CreateBooking': CreateBooking;
  'platform.scheduling.commands.CreateEventType': CreateEventType;
  'platform.scheduling.commands.CreateOrganization': CreateOrganization;
  'platform.scheduling.commands.CreateSchedule': CreateSchedule;
  'platform.scheduling.commands.CreateTeam': CreateTeam;
  'platform.scheduling.commands.CreateTeamInvite': CreateTeamInvite;
  'platform.scheduling.commands.DeleteEventType': DeleteEventType;
  'platform.scheduling.commands.DeleteSchedule': DeleteSchedule;
  'platform.scheduling.commands.DeleteTeam': DeleteTeam;
  'platform.scheduling.commands.EventTypeCommand': EventTypeCommand;
  'platform.scheduling.commands.MembershipCommand': MembershipCommand;
  'platform.scheduling.commands.RemoveTeamMember': RemoveTeamMember;
  'platform.scheduling.commands.RequestPhoneCall': RequestPhoneCall;
  'platform.scheduling.commands.RescheduleBooking': RescheduleBooking;
  'platform.scheduling.commands.ScheduleCommand': ScheduleCommand;
  'platform.scheduling.commands.TeamCommand': TeamCommand;
  'platform.scheduling.commands.UpdateEventType': UpdateEventType;
  'platform.scheduling.commands.UpdateSchedule': UpdateSchedule;
  'platform.scheduling.commands.UpdateTeam': UpdateTeam;
  'platform.scheduling.commands.UpdateTeamMembership': UpdateTeamMembership;
  'platform.scheduling.events.BookingCancelled': BookingCancelled;
  'platform.scheduling.events.BookingCreated': BookingCreated;
  'platform.scheduling.events.BookingRescheduled': BookingRescheduled;
  'platform.scheduling.events.EventTypeChanged': EventTypeChanged;
  'platform.scheduling.events.MembershipChanged': MembershipChanged;
  'platform.scheduling.events.PhoneCallRequested': PhoneCallRequested;
  'platform.scheduling.events.ScheduleChanged': ScheduleChanged;
  'platform.scheduling.events.TeamChanged': TeamChanged;
  'platform.usermgmt.commands.CreateCorsOrigin': CreateCorsOrigin;
  'platform.usermgmt.commands.CreateRedirectUri': CreateRedirectUri;
  'platform.usermgmt.commands.CreateUser': CreateUser;
  'platform.usermgmt.commands.CreateWebhookEndpoint': CreateWebhookEndpoint;
  'platform.usermgmt.commands.DeleteUser': DeleteUser;
  'platform.usermgmt.commands.DeleteWebhookEndpoint': DeleteWebhookEndpoint;
  'platform.usermgmt.commands.RotateWebhookEndpointSecret': RotateWebhookEndpointSecret;
  'platform.usermgmt.commands.UpdateJwtTemplate': UpdateJwtTemplate;
  'platform.usermgmt.commands.UpdateUser': UpdateUser;
  'platform.usermgmt.commands.UpdateWebhookEndpoint': UpdateWebhookEndpoint;
  'platform.usermgmt.events.CorsOriginCreated': CorsOriginCreated;
  'platform.usermgmt.events.JwtTemplateUpdated': JwtTemplateUpdated;
  'platform.usermgmt.events.RedirectUriCreated': RedirectUriCreated;
  'platform.usermgmt.events.UserCreated': UserCreated;
  'platform.usermgmt.events.UserDeleted': UserDeleted;
  'platform.usermgmt.events.UserUpdated': UserUpdated;
  'platform.usermgmt.events.WebhookEndpointChanged': WebhookEndpointChanged;
  'platform.webhooks.commands.RedeliverDeliveries': RedeliverDeliveries;
  'platform.webhooks.commands.RequestDelivery': RequestDelivery;
  'platform.webhooks.events.DeliveryOutcome': DeliveryOutcome;
  'platform.webhooks.events.TargetDisabled': TargetDisabled;
  'platform.webhooks.events.TargetFailing': TargetFailing;
}

export type MessageType = keyof MessageTypes;

export const MessageTypeNames = {
  CompressImage: 'platform.images.commands.CompressImage',
  RenderOutput: 'platform.images.commands.RenderOutput',
  RenderOutputV2: 'platform.images.commands.RenderOutputV2',
  ImageCompressed: 'platform.images.events.ImageCompressed',
  AddBrandedDomain: 'platform.links.commands.AddBrandedDomain',
  AddLinksGroupMember: 'platform.links.commands.AddLinksGroupMember',
  BulkEditShortlinks: 'platform.links.commands.BulkEditShortlinks',
  CreateQrCode: 'platform.links.commands.CreateQrCode',
  CreateShortlink: 'platform.links.commands.CreateShortlink',
  DeleteQrCode: 'platform.links.commands.DeleteQrCode',
  DeleteShortlink: 'platform.links.commands.DeleteShortlink',
  DeleteWebhook: 'platform.links.commands.DeleteWebhook',
  SaveCampaign: 'platform.links.commands.SaveCampaign',
  SaveChannel: 'platform.links.commands.SaveChannel',
  SaveQrLogo: 'platform.links.commands.SaveQrLogo',
  SaveWebhook: 'platform.links.commands.SaveWebhook',
  SetLinksOrganizationFeatures: 'platform.links.commands.SetLinksOrganizationFeatures',
  SetUpLinksOrganization: 'platform.links.commands.SetUpLinksOrganization',
  UpdateLinksGroup: 'platform.links.commands.UpdateLinksGroup',
  UpdateLinksUser: 'platform.links.commands.UpdateLinksUser',
  UpdateQrCode: 'platform.links.commands.UpdateQrCode',
  UpdateShortlink: 'platform.links.commands.UpdateShortlink',
  VerifyWebhook: 'platform.links.commands.VerifyWebhook',
  ShortlinkChanged: 'platform.links.events.ShortlinkChanged',
  ShortlinkClicked: 'platform.links.clicks.ShortlinkClicked',
  ShortlinkCreated: 'platform.links.events.ShortlinkCreated',
  MarkAllInboxNotificationsRead: 'platform.notifications.commands.MarkAllInboxNotificationsRead',
  SendCustomNotification: 'platform.notifications.commands.SendCustomNotification',
  SendTestNotification: 'platform.notifications.commands.SendTestNotification',
  SetInboxNotificationReadStatus: 'platform.notifications.commands.SetInboxNotificationReadStatus',
  UpdateNotificationPreferences: 'platform.notifications.commands.UpdateNotificationPreferences',
  UpdateNotificationSettings: 'platform.notifications.commands.UpdateNotificationSettings',
  InboxNotificationCreated: 'platform.notifications.events.InboxNotificationCreated',
  InboxNotificationReadStatusChanged: 'platform.notifications.events.InboxNotificationReadStatusChanged',
  InboxNotificationsMarkedRead: 'platform.notifications.events.InboxNotificationsMarkedRead',
  NotificationDispatched: 'platform.notifications.events.NotificationDispatched',
  NotificationSettingsChanged: 'platform.notifications.events.NotificationSettingsChanged',
  CreateClient: 'platform.oauth.commands.CreateClient',
  ExchangeAuthorizationCode: 'platform.oauth.commands.ExchangeAuthorizationCode',
  GenerateClientSecret: 'platform.oauth.commands.GenerateClientSecret',
  IssueAuthorizationCode: 'platform.oauth.commands.IssueAuthorizationCode',
  RefreshAccessToken: 'platform.oauth.commands.RefreshAccessToken',
  ReviewClient: 'platform.oauth.commands.ReviewClient',
  RevokeClientSecret: 'platform.oauth.commands.RevokeClientSecret',
  RevokeGrant: 'platform.oauth.commands.RevokeGrant',
  UpdateClient: 'platform.oauth.commands.UpdateClient',
  ClientAccepted: 'platform.oauth.events.ClientAccepted',
  ClientChanged: 'platform.oauth.events.ClientChanged',
  ClientCreated: 'platform.oauth.events.ClientCreated',
  ClientRejected: 'platform.oauth.events.ClientRejected',
  ClientSecretGenerated: 'platform.oauth.events.ClientSecretGenerated',
  ClientSecretRevoked: 'platform.oauth.events.ClientSecretRevoked',
  ClientSubmittedForReview: 'platform.oauth.events.ClientSubmittedForReview',
  GrantRevoked: 'platform.oauth.events.GrantRevoked',
  TokenIssued: 'platform.oauth.events.TokenIssued',
  AcceptTeamInvite: 'platform.scheduling.commands.AcceptTeamInvite',
  AddOrganizationMember: 'platform.scheduling.commands.AddOrganizationMember',
  AddTeamMember: 'platform.scheduling.commands.AddTeamMember',
  BookingCommand: 'platform.scheduling.commands.BookingCommand',
  CancelBooking: 'platform.scheduling.commands.CancelBooking',
  CreateBooking: 'platform.scheduling.commands.CreateBooking',
  CreateEventType: 'platform.scheduling.commands.CreateEventType',
  CreateOrganization: 'platform.scheduling.commands.CreateOrganization',
  CreateSchedule: 'platform.scheduling.commands.CreateSchedule',
  CreateTeam: 'platform.scheduling.commands.CreateTeam',
  CreateTeamInvite: 'platform.scheduling.commands.CreateTeamInvite',
  DeleteEventType: 'platform.scheduling.commands.DeleteEventType',
  DeleteSchedule: 'platform.scheduling.commands.DeleteSchedule',
  DeleteTeam: 'platform.scheduling.commands.DeleteTeam',
  EventTypeCommand: 'platform.scheduling.commands.EventTypeCommand',
  MembershipCommand: 'platform.scheduling.commands.MembershipCommand',
  RemoveTeamMember: 'platform.scheduling.commands.RemoveTeamMember',
  RequestPhoneCall: 'platform.scheduling.commands.RequestPhoneCall',
  RescheduleBooking: 'platform.scheduling.commands.RescheduleBooking',
  ScheduleCommand: 'platform.scheduling.commands.ScheduleCommand',
  TeamCommand: 'platform.scheduling.commands.TeamCommand',
  UpdateEventType: 'platform.scheduling.commands.UpdateEventType',
  UpdateSchedule: 'platform.scheduling.commands.UpdateSchedule',
  UpdateTeam: 'platform.scheduling.commands.UpdateTeam',
  UpdateTeamMembership: 'platform.scheduling.commands.UpdateTeamMembership',
  BookingCancelled: 'platform.scheduling.events.BookingCancelled',
  BookingCreated: 'platform.scheduling.events.BookingCreated',
  BookingRescheduled: 'platform.scheduling.events.BookingRescheduled',
  EventTypeChanged: 'platform.scheduling.events.EventTypeChanged',
  MembershipChanged: 'platform.scheduling.events.MembershipChanged',
  PhoneCallRequested: 'platform.scheduling.events.PhoneCallRequested',
  ScheduleChanged: 'platform.scheduling.events.ScheduleChanged',
  TeamChanged: 'platform.scheduling.events.TeamChanged',
  CreateCorsOrigin: 'platform.usermgmt.commands.CreateCorsOrigin',
  CreateRedirectUri: 'platform.usermgmt.commands.CreateRedirectUri',
  CreateUser: 'platform.usermgmt.commands.CreateUser',
  CreateWebhookEndpoint: 'platform.usermgmt.commands.CreateWebhookEndpoint',
  DeleteUser: 'platform.usermgmt.commands.DeleteUser',
  DeleteWebhookEndpoint: 'platform.usermgmt.commands.DeleteWebhookEndpoint',
  RotateWebhookEndpointSecret: 'platform.usermgmt.commands.RotateWebhookEndpointSecret',
  UpdateJwtTemplate: 'platform.usermgmt.commands.UpdateJwtTemplate',
  UpdateUser: 'platform.usermgmt.commands.UpdateUser',
  UpdateWebhookEndpoint: 'platform.usermgmt.commands.UpdateWebhookEndpoint',
  CorsOriginCreated: 'platform.usermgmt.events.CorsOriginCreated',
  JwtTemplateUpdated: 'platform.usermgmt.events.JwtTemplateUpdated',
  RedirectUriCreated: 'platform.usermgmt.events.RedirectUriCreated',
  UserCreated: 'platform.usermgmt.events.UserCreated',
  UserDeleted: 'platform.usermgmt.events.UserDeleted',
  UserUpdated: 'platform.usermgmt.events.UserUpdated',
  WebhookEndpointChanged: 'platform.usermgmt.events.WebhookEndpointChanged',
  RedeliverDeliveries: 'platform.webhooks.commands.RedeliverDeliveries',
  RequestDelivery: 'platform.webhooks.commands.RequestDelivery',
  DeliveryOutcome: 'platform.webhooks.events.DeliveryOutcome',
  TargetDisabled: 'platform.webhooks.events.TargetDisabled',
  TargetFailing: 'platform.webhooks.events.TargetFailing',
} as const satisfies Record<string, MessageType>;
