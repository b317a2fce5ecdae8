import fs from 'node:fs';
import { AvroSchemaParser } from '@asyncapi/avro-schema-parser';
import { DiagnosticSeverity, Parser, type AsyncAPIDocumentInterface, type Diagnostic } from '@asyncapi/parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
// @ts-expect-error plain ESM helper shared with the generator script
import { asyncApiFile, asyncApiInputs, renderAsyncApi } from '../scripts/asyncapi-files.mjs';
import { AVRO_SCHEMA_FORMAT, buildAsyncApiDocument } from './asyncapi.js';
import { DEAD_LETTER, TOPIC_CATALOGUE } from './topics.js';

const committed = fs.readFileSync(asyncApiFile as string, 'utf8');
const avroParser = AvroSchemaParser();
const parser = new Parser({ schemaParsers: [avroParser] });

/** Errors and warnings; the parser's information (e.g. "3.1.0 exists") and hints do not fail the document. */
const problems = (diagnostics: Diagnostic[]) =>
  diagnostics
    .filter((d) => d.severity === DiagnosticSeverity.Error || d.severity === DiagnosticSeverity.Warning)
    .map((d) => `${d.code} at ${d.path.join('/')}: ${d.message}`);

type Doc = {
  components: {
    messages: Record<string, { payload: { schemaFormat: string; schema: { fields: Array<{ type: unknown }> } } }>;
  };
};

/**
 * The parser checks an Avro payload of a 3.0 document against the structure of Avro only; the Avro schema
 * parser's own `validate` (avsc: unknown type names, bad defaults) it calls for 2.x documents alone, so it is
 * called here for every message, as the parser does for 2.x.
 */
async function check(text: string): Promise<{ document: AsyncAPIDocumentInterface | undefined; problems: string[] }> {
  const parsed = await parser.parse(text);
  const found = problems(parsed.diagnostics);
  const raw = parseYaml(text) as Doc;
  for (const [name, message] of Object.entries(raw.components.messages)) {
    const path = ['components', 'messages', name, 'payload', 'schema'];
    // The Avro parser reads only `data` (and `path` for its message).
    const input = { data: message.payload.schema, path, schemaFormat: message.payload.schemaFormat } as Parameters<
      typeof avroParser.validate
    >[0];
    for (const result of (await avroParser.validate(input)) ?? [])
      found.push(`avro at ${path.join('/')}: ${result.message}`);
  }
  return { document: parsed.document, problems: found };
}

describe('docs/asyncapi.yaml', () => {
  it('is what npm run asyncapi:gen writes from the topic catalogue and schemas/', () => {
    const generated = renderAsyncApi(buildAsyncApiDocument(asyncApiInputs())) as string;
    expect(committed === generated, 'docs/asyncapi.yaml is stale: run npm run asyncapi:gen').toBe(true);
  });

  describe('read by the AsyncAPI parser with its Avro schema parser', () => {
    let document: AsyncAPIDocumentInterface;
    beforeAll(async () => {
      const checked = await check(committed);
      expect(checked.problems).toEqual([]);
      document = checked.document!;
    }, 60_000);

    it('has every topic and its dead-letter topic with partitions, retention and the records of the catalogue', () => {
      for (const topic of TOPIC_CATALOGUE) {
        for (const [address, partitions, retentionMs] of [
          [topic.name, topic.partitions, topic.retentionMs],
          [`${topic.name}${DEAD_LETTER.suffix}`, DEAD_LETTER.partitions, DEAD_LETTER.retentionMs],
        ] as const) {
          const channel = document
            .channels()
            .all()
            .find((c) => c.address() === address);
          expect(channel, address).toBeDefined();
          const kafka = channel!
            .bindings()
            .get('kafka')!
            .value<{ partitions: number; topicConfiguration: Record<string, unknown> }>();
          expect(kafka.partitions, address).toBe(partitions);
          expect(kafka.topicConfiguration['retention.ms'], address).toBe(retentionMs);
          const names = channel!
            .messages()
            .all()
            .map((m) => m.name());
          expect(names.sort(), address).toEqual([...topic.records].sort());
        }
      }
      expect(document.channels().length).toBe(TOPIC_CATALOGUE.length * 2);
    });

    it('gives each message its Avro schema, its key and the headers it travels with', () => {
      for (const topic of TOPIC_CATALOGUE) {
        const channel = document
          .channels()
          .all()
          .find((c) => c.address() === topic.name)!;
        for (const message of channel.messages().all()) {
          expect(message.schemaFormat(), message.name()).toBe(AVRO_SCHEMA_FORMAT);
          const key = message.bindings().get('kafka')!.value<{ key: { type: string; description: string } }>().key;
          expect(key.description, message.name()).toContain(topic.key);
          const headers = JSON.stringify(message.headers()!.json());
          for (const header of ['ce_id', 'ce_type', 'ce_source', 'ce_time', 'ce_schema', 'traceparent'])
            expect(headers, message.name()).toContain(header);
          expect(headers, message.name()).toContain(`"const":"${message.name()}"`);
        }
      }
    });

    it('names the producers and every known consumer group of each topic as operations', () => {
      for (const topic of TOPIC_CATALOGUE) {
        const operations = document
          .operations()
          .all()
          .filter((o) =>
            o
              .channels()
              .all()
              .some((c) => c.address() === topic.name),
          );
        const send = operations.filter((o) => o.action() === 'send');
        expect(
          send.map((o) => o.extensions().get('x-producers')?.value()),
          topic.name,
        ).toEqual([[...topic.producers]]);
        const groups = operations
          .filter((o) => o.action() === 'receive')
          .map((o) => o.bindings().get('kafka')!.value<{ groupId: { const?: string; pattern?: string } }>().groupId);
        expect(groups.length, topic.name).toBe(topic.consumerGroups.length);
        for (const group of topic.consumerGroups) {
          const literal = group.group.includes('<replica>') ? undefined : group.group;
          expect(
            groups.some((g) =>
              literal ? g.const === literal : new RegExp(g.pattern!).test(group.group.replace('<replica>', 'r1')),
            ),
            `${topic.name}: ${group.group}`,
          ).toBe(true);
        }
      }
    });
  });

  it('fails a document whose Avro schema is broken (the check itself can fail)', async () => {
    const misspelt = parseYaml(committed) as Doc;
    misspelt.components.messages['platform.usermgmt.events.UserCreated']!.payload.schema.fields[0]!.type = 'strnig';
    expect((await check(JSON.stringify(misspelt))).problems.join('\n')).toMatch(
      /avro at components\/messages\/platform\.usermgmt\.events\.UserCreated.*strnig/,
    );
    const malformed = parseYaml(committed) as Doc;
    (
      malformed.components.messages['platform.usermgmt.events.UserCreated']!.payload.schema as { fields: unknown }
    ).fields = 3;
    expect((await check(JSON.stringify(malformed))).problems.join('\n')).toMatch(
      /asyncapi-document-resolved at components\/messages\/platform\.usermgmt\.events\.UserCreated\/payload/,
    );
  }, 60_000);
});
