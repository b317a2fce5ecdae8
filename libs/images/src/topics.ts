export const IMAGES_TOPICS = {
  commands: 'images.commands',
  events: 'images.events',
} as const;
