import type { MessageTypes } from '@platform/contracts';
import type { OutgoingMessage, Publisher } from '@platform/kafka';
import type { OutgoingDoc } from '@platform/notifications';
import { describe, expect, it } from 'vitest';
import { createWebhookMethod, type WebhookTarget } from './webhook.js';

type RequestDelivery = MessageTypes['platform.webhooks.commands.RequestDelivery'];

function outgoing(userId: string): OutgoingDoc {
  const at = new Date('2030-01-07T09:00:00Z');
  return {
    _id: `cause_1:${userId}`,
    deployment_id: 'dep_1',
    user_id: userId,
    lane: `dep_1:${userId}`,
    notification_id: '0190c5a8-0000-7000-8000-000000000001',
    template_id: 't',
    targets: [],
    title: 'Deploy finished',
    content: 'The **build** passed.',
    icon: '',
    actions: [],
    email: null,
    labels: {},
    recipient: { name: 'U', username: 'u' },
    methods: [],
    pending: 1,
    pending_methods: ['webhook'],
    next_attempt_at: at,
    created_at: at,
    outbox: [],
    has_outbox: false,
  };
}

/** The RequestDelivery the webhook method publishes for one notification to `target`. */
async function requestFor(target: Partial<WebhookTarget>, userId = 'user_1'): Promise<RequestDelivery> {
  const published: OutgoingMessage[] = [];
  const publisher = {
    publish: async (message: OutgoingMessage) => {
      published.push(message);
      return 'id';
    },
  } as unknown as Publisher;
  const send = createWebhookMethod(
    { url: 'https://hooks.example.com/n', sealedSecret: 'sealed', rateLimit: null, ordered: false, ...target },
    () => publisher,
  );
  expect(await send(outgoing(userId))).toBe('sent');
  expect(published).toHaveLength(1);
  return published[0]!.value as RequestDelivery;
}

describe('the webhook method', () => {
  it("asks for the configured rate limit and orders by the notification's user when ordered", async () => {
    const request = await requestFor({ rateLimit: 4, ordered: true }, 'user_7');
    expect(request.target).toMatchObject({ id: 'notifications-webhook', rate_limit: 4 });
    expect(request.ordering_key).toBe('user_7');
  });

  it('leaves both to the dispatcher when neither is configured', async () => {
    const request = await requestFor({});
    expect(request.target.rate_limit).toBeNull();
    expect(request.ordering_key).toBeNull();
  });
});
