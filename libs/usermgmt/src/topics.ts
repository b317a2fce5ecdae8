export const USERMGMT_TOPICS = {
  commands: 'usermgmt.commands',
  events: 'usermgmt.events',
} as const;
