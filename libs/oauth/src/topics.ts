export const OAUTH_TOPICS = {
  commands: 'oauth.commands',
  events: 'oauth.events',
} as const;
