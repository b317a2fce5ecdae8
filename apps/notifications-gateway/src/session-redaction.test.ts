import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import type { FastifyRequest } from 'fastify';
import { startTelemetry, withSpan } from '@platform/telemetry';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { redactSpanQuery } from './session-redaction.js';

const exporter = new InMemorySpanExporter();
const telemetry = startTelemetry({
  serviceName: 'notifications-gateway-test',
  exporter,
  autoInstrument: false,
  traceSampleRatio: 1,
});
afterAll(() => telemetry.shutdown());

/** The attributes of a server span as the HTTP instrumentation starts it, after the gateway's first hook. */
async function spanOf(url: string) {
  const query = url.includes('?') ? url.slice(url.indexOf('?') + 1) : undefined;
  await withSpan('test', url, { attributes: query === undefined ? {} : { 'url.query': query } }, async () => {
    redactSpanQuery({ url } as FastifyRequest, undefined, () => undefined);
  });
  return vi.waitFor(() => {
    const span = exporter.getFinishedSpans().find((s) => s.name === url);
    if (!span) throw new Error('not exported yet');
    return span.attributes;
  });
}

describe("the watch stream's span", () => {
  it('carries the query without the session token', async () => {
    const attributes = await spanOf(
      '/api/v2/notifications/inbox/watch?read_status=unread&platform_session_token=ntf_s3cret',
    );
    expect(attributes['url.query']).toBe('read_status=unread&platform_session_token=REDACTED');
    expect(JSON.stringify(attributes)).not.toContain('ntf_s3cret');
  });

  it('keeps a query without a token as it is', async () => {
    expect((await spanOf('/api/v2/notifications/inbox?read_status=unread'))['url.query']).toBe('read_status=unread');
  });
});
