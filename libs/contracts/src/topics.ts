import { MessageTypeNames, type MessageType } from './generated/types.js';

/**
 * The topic catalogue: every topic of the platform once, with its owner, partitions, retention, dead-letter
 * topic and the record types allowed on it. Processes create their topics from it (libs/kafka `ensureTopics`),
 * the Kubernetes manifests size consumers by it, and downstream teams read it as the event contract.
 */
export interface TopicEntry {
  /** The logical name; a deployment's `KAFKA_TOPIC_PREFIX` is put in front of it. */
  name: string;
  kind: 'commands' | 'events';
  /** The process that owns the topic: it consumes the commands, or produces the events. */
  owner: string;
  producers: readonly string[];
  /** Known consumer group ids (downstream systems add their own): the `group` of each of `consumerGroups`. */
  consumers: readonly string[];
  /** The platform's own consumer groups on this topic, with the app that runs them and why. */
  consumerGroups: readonly ConsumerGroup[];
  /** Messages of one key stay in order; the most consumers one group can use at once. */
  partitions: number;
  retentionMs: number;
  /** What the message key is. */
  key: string;
  /** The record types (Avro full names) a message on this topic may carry, from schemas/. */
  records: readonly MessageType[];
}

export interface ConsumerGroup {
  /**
   * The group id, as the app passes it to libs/kafka (which puts the deployment's `KAFKA_TOPIC_PREFIX` in front
   * of it). `<replica>` stands for the replica id of an app whose every replica reads the whole topic.
   */
  group: string;
  /** The app (apps/<app>) whose processes join the group. */
  app: string;
  purpose: string;
}

/** A message that keeps failing goes to `<topic>.dlq`: one partition, kept long enough to inspect and replay. */
export const DEAD_LETTER = { suffix: '.dlq', partitions: 1, retentionMs: 30 * 24 * 3600_000 } as const;

const DAY = 24 * 3600_000;

/** Where each schema namespace (`platform.<domain>.<kind>`) is published. */
const TOPIC_OF_NAMESPACE: Record<string, string> = {
  'platform.usermgmt.commands': 'usermgmt.commands',
  'platform.usermgmt.events': 'usermgmt.events',
  'platform.oauth.commands': 'oauth.commands',
  'platform.oauth.events': 'oauth.events',
  'platform.scheduling.commands': 'scheduling.commands',
  'platform.scheduling.events': 'scheduling.events',
  'platform.images.commands': 'images.commands',
  'platform.images.events': 'images.events',
  'platform.notifications.commands': 'notifications.commands',
  'platform.notifications.events': 'notifications.events',
  'platform.links.commands': 'links.commands',
  'platform.links.events': 'links.events',
  'platform.links.clicks': 'links.clicks',
  'platform.webhooks.commands': 'webhooks.deliveries',
  'platform.webhooks.events': 'webhooks.events',
};

/** The topic a record type is published on (from its schema's namespace). */
export function topicOfRecord(type: MessageType): string {
  const namespace = type.slice(0, type.lastIndexOf('.'));
  const topic = TOPIC_OF_NAMESPACE[namespace];
  if (!topic) throw new Error(`no topic for the namespace ${namespace} (add it to the topic catalogue)`);
  return topic;
}

const recordsOf = (topic: string): MessageType[] =>
  Object.values(MessageTypeNames).filter((type) => topicOfRecord(type) === topic);

type Entry = Omit<TopicEntry, 'records' | 'consumers'>;
const entries: Entry[] = [
  {
    name: 'usermgmt.commands',
    kind: 'commands',
    owner: 'usermgmt-worker',
    producers: ['usermgmt-gateway'],
    consumerGroups: [
      { group: 'usermgmt-worker', app: 'usermgmt-worker', purpose: 'handles the commands and replies to the sender' },
    ],
    partitions: 12,
    retentionMs: 7 * DAY,
    key: 'the aggregate: the user id, or the environment id for environment-wide settings',
  },
  {
    name: 'usermgmt.events',
    kind: 'events',
    owner: 'usermgmt-worker',
    producers: ['usermgmt-worker'],
    consumerGroups: [
      {
        group: 'usermgmt-webhook-fanout',
        app: 'usermgmt-worker',
        purpose: 'logs user events for the Events API and turns them into webhook deliveries',
      },
    ],
    partitions: 12,
    retentionMs: 7 * DAY,
    key: 'the aggregate: the user id, the endpoint id, or the environment id for environment-wide settings',
  },
  {
    name: 'oauth.commands',
    kind: 'commands',
    owner: 'oauth-worker',
    producers: ['scheduling-gateway', 'scheduling-web'],
    consumerGroups: [
      { group: 'oauth-worker', app: 'oauth-worker', purpose: 'handles the commands and replies to the sender' },
    ],
    partitions: 12,
    retentionMs: 7 * DAY,
    key: 'the client id, or the code or refresh token hash for token requests',
  },
  {
    name: 'oauth.events',
    kind: 'events',
    owner: 'oauth-worker',
    producers: ['oauth-worker'],
    consumerGroups: [
      { group: 'notifier-oauth-reviews', app: 'notifier', purpose: "e-mails a client's owner the review outcome" },
    ],
    partitions: 4,
    retentionMs: 7 * DAY,
    key: 'the client id',
  },
  {
    name: 'scheduling.commands',
    kind: 'commands',
    owner: 'scheduling-worker',
    producers: ['scheduling-gateway', 'scheduling-web'],
    consumerGroups: [
      {
        group: 'scheduling-worker',
        app: 'scheduling-worker',
        purpose: 'handles the commands and replies to the sender',
      },
    ],
    partitions: 12,
    retentionMs: 7 * DAY,
    key: 'the aggregate: team, event type, schedule or booking uid',
  },
  {
    name: 'scheduling.events',
    kind: 'events',
    owner: 'scheduling-worker',
    producers: ['scheduling-worker'],
    consumerGroups: [],
    partitions: 4,
    retentionMs: 7 * DAY,
    key: 'the aggregate (a booking by its uid)',
  },
  {
    name: 'images.commands',
    kind: 'commands',
    owner: 'image-worker',
    producers: ['images-gateway'],
    consumerGroups: [
      {
        group: 'image-worker',
        app: 'image-worker',
        purpose: 'compresses and renders images, and replies to the sender',
      },
    ],
    partitions: 12,
    retentionMs: 1 * DAY,
    key: 'the output id',
  },
  {
    name: 'images.events',
    kind: 'events',
    owner: 'image-worker',
    producers: ['image-worker'],
    consumerGroups: [
      {
        group: 'notifier-image-quota',
        app: 'notifier',
        purpose: 'notifies an account whose compression quota is nearly used',
      },
    ],
    partitions: 4,
    retentionMs: 7 * DAY,
    key: 'the account (environment) id',
  },
  {
    name: 'notifications.commands',
    kind: 'commands',
    owner: 'notifier',
    producers: ['notifications-gateway'],
    consumerGroups: [{ group: 'notifier', app: 'notifier', purpose: 'handles the commands and replies to the sender' }],
    partitions: 12,
    retentionMs: 7 * DAY,
    key: 'the user the command is about (settings: the deployment id)',
  },
  {
    name: 'notifications.events',
    kind: 'events',
    owner: 'notifier',
    producers: ['notifier'],
    consumerGroups: [
      {
        group: 'notifications-watch.<replica>',
        app: 'notifications-gateway',
        purpose: 'every replica feeds its own inbox watch streams (WebSocket, SSE), from the newest event on',
      },
    ],
    partitions: 4,
    retentionMs: 7 * DAY,
    key: "the user id (a deployment id for settings), so one user's inbox changes stay in order",
  },
  {
    name: 'links.commands',
    kind: 'commands',
    owner: 'links-worker',
    producers: ['links-gateway', 'cli'],
    consumerGroups: [
      { group: 'links-worker', app: 'links-worker', purpose: 'handles the commands and replies to the sender' },
    ],
    partitions: 12,
    retentionMs: 7 * DAY,
    key: 'the group guid (links of one group in order), or the organization id for organization-wide changes',
  },
  {
    name: 'links.events',
    kind: 'events',
    owner: 'links-worker',
    producers: ['links-worker'],
    consumerGroups: [
      {
        group: 'redirector.<replica>',
        app: 'redirector',
        purpose: 'every replica forgets a changed link, from the newest event on',
      },
      { group: 'analytics-aggregator', app: 'analytics-aggregator', purpose: 'counts shortened links' },
      { group: 'links-reactions', app: 'links-worker', purpose: 'webhook deliveries for new and changed links' },
    ],
    partitions: 4,
    retentionMs: 7 * DAY,
    key: 'the short link id (domain/hash)',
  },
  {
    name: 'links.clicks',
    kind: 'events',
    owner: 'redirector',
    producers: ['redirector'],
    consumerGroups: [
      {
        group: 'analytics-aggregator',
        app: 'analytics-aggregator',
        purpose: 'folds clicks and QR scans into metric buckets',
      },
      { group: 'links-reactions', app: 'links-worker', purpose: 'marks first redirects and delivers click webhooks' },
    ],
    partitions: 12,
    retentionMs: 30 * DAY,
    key: "the short link id (domain/hash), so one link's clicks stay in order",
  },
  {
    name: 'webhooks.deliveries',
    kind: 'commands',
    owner: 'webhook-dispatcher',
    producers: ['usermgmt-worker', 'usermgmt-gateway', 'notifier', 'links-worker'],
    consumerGroups: [
      { group: 'webhook-dispatcher', app: 'webhook-dispatcher', purpose: 'delivers, signs and retries webhooks' },
    ],
    partitions: 4,
    retentionMs: 7 * DAY,
    key: 'the target (endpoint) id: one target, one partition',
  },
  {
    name: 'webhooks.events',
    kind: 'events',
    owner: 'webhook-dispatcher',
    producers: ['webhook-dispatcher'],
    consumerGroups: [
      { group: 'usermgmt-webhook-state', app: 'usermgmt-worker', purpose: 'marks a disabled webhook endpoint' },
      {
        group: 'links-webhook-state',
        app: 'links-worker',
        purpose: 'alerts on a failing webhook and deactivates a disabled one',
      },
    ],
    partitions: 4,
    retentionMs: 7 * DAY,
    key: 'the target (endpoint) id',
  },
];

export const TOPIC_CATALOGUE: readonly TopicEntry[] = entries.map((entry) =>
  Object.freeze({ ...entry, consumers: entry.consumerGroups.map((g) => g.group), records: recordsOf(entry.name) }),
);

export function topicEntry(name: string): TopicEntry {
  const entry = TOPIC_CATALOGUE.find((t) => t.name === name);
  if (!entry) throw new Error(`${name} is not in the topic catalogue (libs/contracts/src/topics.ts)`);
  return entry;
}
