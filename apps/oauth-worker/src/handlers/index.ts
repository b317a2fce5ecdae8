import type { MessageTypeNames } from '@platform/contracts';
import type { CommandHandlerMap } from '@platform/kafka';
import {
  createClient,
  generateClientSecret,
  reviewClient,
  revokeClientSecret,
  updateClient,
} from './clients.handlers.js';
import type { HandlerDeps } from './deps.js';
import {
  exchangeAuthorizationCode,
  issueAuthorizationCode,
  refreshAccessToken,
  revokeGrantCommand,
} from './tokens.handlers.js';

type N = typeof MessageTypeNames;
export type OAuthCommand =
  | N['CreateClient']
  | N['UpdateClient']
  | N['ReviewClient']
  | N['GenerateClientSecret']
  | N['RevokeClientSecret']
  | N['IssueAuthorizationCode']
  | N['ExchangeAuthorizationCode']
  | N['RefreshAccessToken']
  | N['RevokeGrant'];

/** Every OAuth command has exactly one handler: a missing entry is a type error. */
export const commandHandlers: CommandHandlerMap<OAuthCommand, HandlerDeps> = {
  'platform.oauth.commands.CreateClient': createClient,
  'platform.oauth.commands.UpdateClient': updateClient,
  'platform.oauth.commands.ReviewClient': reviewClient,
  'platform.oauth.commands.GenerateClientSecret': generateClientSecret,
  'platform.oauth.commands.RevokeClientSecret': revokeClientSecret,
  'platform.oauth.commands.IssueAuthorizationCode': issueAuthorizationCode,
  'platform.oauth.commands.ExchangeAuthorizationCode': exchangeAuthorizationCode,
  'platform.oauth.commands.RefreshAccessToken': refreshAccessToken,
  'platform.oauth.commands.RevokeGrant': revokeGrantCommand,
};

export type { HandlerDeps } from './deps.js';
