export const SCHEDULING_TOPICS = {
  commands: 'scheduling.commands',
  events: 'scheduling.events',
} as const;
