export const LINKS_TOPICS = {
  commands: 'links.commands',
  events: 'links.events',
  clicks: 'links.clicks',
} as const;
