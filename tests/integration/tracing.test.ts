import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, waitFor, type WebhookReceiver } from '@platform/testing';
import { startUsermgmtStack, type UsermgmtStack } from '../support/usermgmt-stack.js';

// An in-memory exporter stands in for the OTLP collector: spans of the gateway, worker and dispatcher
// (all in this process) land here, and the test follows one trace id through all three.
const exporter = new InMemorySpanExporter();
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));

let stack: UsermgmtStack;
let receiver: WebhookReceiver;

beforeAll(async () => {
  stack = await startUsermgmtStack();
  receiver = await startWebhookReceiver();
}, 120_000);

afterAll(async () => {
  await receiver?.close();
  await stack?.close();
});

describe('trace context', () => {
  it('carries the gateway trace id through Kafka into the worker and the webhook dispatcher', async () => {
    const { key } = await stack.newKey();
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const endpoint = await stack.app.inject({
      method: 'POST',
      url: '/webhook_endpoints',
      headers,
      payload: { endpoint_url: receiver.url, events: ['user.created'] },
    });
    expect(endpoint.statusCode).toBe(201);
    exporter.reset();

    const user = await stack.app.inject({
      method: 'POST',
      url: '/user_management/users',
      headers,
      payload: { email: 'trace@example.com' },
    });
    expect(user.statusCode).toBe(201);

    const gatewaySpan = exporter
      .getFinishedSpans()
      .find(
        (s) =>
          s.name === 'send platform.usermgmt.commands.CreateUser' &&
          s.attributes['platform.component'] === 'usermgmt-gateway',
      );
    expect(gatewaySpan).toBeDefined();
    const traceId = gatewaySpan!.spanContext().traceId;

    const attempt = await waitFor(
      () =>
        exporter.getFinishedSpans().find((s) => s.name === 'webhook attempt' && s.spanContext().traceId === traceId),
      { what: 'dispatcher span in the gateway trace' },
    );
    expect(attempt.attributes['platform.component']).toBe('webhook-dispatcher');
    const inTrace = exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
    const components = new Set(inTrace.map((s) => s.attributes['platform.component']).filter(Boolean));
    expect(components).toEqual(new Set(['usermgmt-gateway', 'usermgmt-worker', 'webhook-dispatcher']));
    expect(inTrace.map((s) => s.name)).toEqual(
      expect.arrayContaining([
        'process platform.usermgmt.commands.CreateUser',
        'process platform.usermgmt.events.UserCreated',
        'process platform.webhooks.commands.RequestDelivery',
        'webhook attempt',
      ]),
    );
    expect(receiver.requests.some((r) => r.body.includes('trace@example.com'))).toBe(true);
  });
});
