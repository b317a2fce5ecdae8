/** What the worker replies to client commands (never secret hashes). */
export interface ClientReply {
  id: string;
  name: string;
  status: string;
  kind: string;
  scopes: string[];
  redirect_uris: string[];
  secrets: { id: string; hint: string; created_at: string }[];
}

/** What a successful exchange or refresh tells the gateway, which signs the access token. */
export interface IssuedGrant {
  grant_id: string;
  user_id: string;
  client_id: string;
  scopes: string[];
  legacy: boolean;
}

/** Each OAuth command's reply (see CommandReplies in @platform/contracts). */
declare module '@platform/contracts' {
  interface CommandReplies {
    'platform.oauth.commands.CreateClient': ClientReply;
    'platform.oauth.commands.UpdateClient': ClientReply;
    'platform.oauth.commands.ReviewClient': ClientReply;
    'platform.oauth.commands.GenerateClientSecret': ClientReply;
    'platform.oauth.commands.RevokeClientSecret': ClientReply;
    'platform.oauth.commands.IssueAuthorizationCode': { expires_at: number };
    'platform.oauth.commands.ExchangeAuthorizationCode': IssuedGrant;
    'platform.oauth.commands.RefreshAccessToken': IssuedGrant;
    'platform.oauth.commands.RevokeGrant': { revoked: boolean };
  }
}
