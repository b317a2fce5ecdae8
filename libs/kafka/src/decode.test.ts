import { describe, expect, it } from 'vitest';
import { MessageTypeNames, encodeMessage, frameConfluent } from '@platform/contracts';
import { decodeBody } from './decode.js';
import { HEADERS, readHeaders, type MessageMeta } from './headers.js';

const click = {
  click_id: 'c1',
  id: 'bit.ly/abc',
  organization_id: 'o1',
  group_guid: 'g1',
  long_url: 'https://example.com/',
  clicked_at: 1_700_000_000_000,
  referrer: null,
  user_agent: null,
  client_ip: null,
  bot: false,
  qr: false,
  qrcode_id: null,
  passed_params: '',
};
const type = MessageTypeNames.ShortlinkClicked;
const encoded = encodeMessage(type, click);
/** The metadata of a message received with these headers (as kafkajs hands them over: buffers). */
const meta = (extra: Record<string, string> = {}): MessageMeta => {
  const headers = { [HEADERS.id]: 'e1', [HEADERS.type]: type, [HEADERS.schema]: encoded.schemaId, ...extra };
  return readHeaders(Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, Buffer.from(v)])))!;
};

describe('decodeBody', () => {
  it('reads a bare Avro body named by ce_schema', async () => {
    expect(await decodeBody(undefined, type, meta(), encoded.value)).toEqual(click);
  });

  it('reads a body in the Confluent wire format of a released schema without asking a registry', async () => {
    const framed = frameConfluent(7, encoded.value);
    expect(await decodeBody(undefined, type, meta({ [HEADERS.registryId]: '7' }), framed)).toEqual(click);
  });

  it('refuses a body whose frame does not carry the id of its header', async () => {
    await expect(
      decodeBody(undefined, type, meta({ [HEADERS.registryId]: '8' }), frameConfluent(7, encoded.value)),
    ).rejects.toThrow(/registry id 8/);
    await expect(decodeBody(undefined, type, meta({ [HEADERS.registryId]: '7' }), encoded.value)).rejects.toThrow(
      /magic byte/,
    );
  });
});
