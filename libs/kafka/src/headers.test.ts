import { describe, expect, it } from 'vitest';
import { HEADERS, readHeaders } from './headers.js';

const received = (headers: Record<string, string | string[]>) =>
  readHeaders(
    Object.fromEntries(
      Object.entries(headers).map(([k, v]) => [k, Array.isArray(v) ? v.map((x) => Buffer.from(x)) : Buffer.from(v)]),
    ),
  );

describe('readHeaders', () => {
  const cloudEvent = {
    [HEADERS.id]: 'e1',
    [HEADERS.type]: 'ShortlinkClicked',
    [HEADERS.schema]: 'abc',
    [HEADERS.source]: '/redirector',
    [HEADERS.time]: '2026-11-25T08:00:00.000Z',
  };

  it('reads the CloudEvents headers, and every header as strings on demand', () => {
    const meta = received({
      ...cloudEvent,
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
      custom: ['first', 'second'],
    });
    expect(meta).toMatchObject({
      id: 'e1',
      type: 'ShortlinkClicked',
      schema: 'abc',
      source: '/redirector',
      time: '2026-11-25T08:00:00.000Z',
    });
    expect(meta!.registryId).toBeUndefined();
    expect(meta!.raw).toEqual({
      ...cloudEvent,
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
      custom: 'first',
    });
    expect(meta!.raw).toBe(meta!.raw);
  });

  it('reads source and time only when asked for, with their defaults when absent, and shows them in JSON', () => {
    const meta = received(cloudEvent)!;
    expect(JSON.parse(JSON.stringify(meta))).toEqual({
      id: 'e1',
      type: 'ShortlinkClicked',
      schema: 'abc',
      source: '/redirector',
      time: '2026-11-25T08:00:00.000Z',
    });
    const { [HEADERS.source]: _source, [HEADERS.time]: _time, ...bare } = cloudEvent;
    expect(received(bare)).toMatchObject({ source: 'unknown', time: '' });
  });

  it('reads the reply, deadline and registry headers when a message has them', () => {
    const meta = received({
      ...cloudEvent,
      [HEADERS.correlationId]: 'c1',
      [HEADERS.replyTo]: 'replies',
      [HEADERS.deadline]: '1764057600000',
      [HEADERS.registryId]: '7',
    });
    expect(meta).toMatchObject({ correlationId: 'c1', replyTo: 'replies', deadline: 1764057600000, registryId: '7' });
    expect(received({ ...cloudEvent, [HEADERS.deadline]: 'soon' })!.deadline).toBeUndefined();
  });

  it('refuses a message without an id, a type or a schema', () => {
    expect(readHeaders(undefined)).toBeUndefined();
    for (const missing of [HEADERS.id, HEADERS.type, HEADERS.schema]) {
      const { [missing]: _, ...rest } = cloudEvent;
      expect(received(rest)).toBeUndefined();
    }
    expect(received({ ...cloudEvent, [HEADERS.id]: '' })).toBeUndefined();
  });
});
