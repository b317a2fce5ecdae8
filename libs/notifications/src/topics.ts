export const NOTIFICATIONS_TOPICS = {
  commands: 'notifications.commands',
  events: 'notifications.events',
} as const;
