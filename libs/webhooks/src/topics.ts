export const WEBHOOK_TOPICS = {
  /** Delivery requests from every producer. */
  deliveries: 'webhooks.deliveries',
  /** Outcomes and target state changes, for producers and anyone else. */
  events: 'webhooks.events',
} as const;
