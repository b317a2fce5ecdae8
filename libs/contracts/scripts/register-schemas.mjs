// Registers the current schema of every record of every catalogue topic in a Confluent-compatible schema
// registry (ADR 0020): subjects `<prefix><topic>-<record full name>`, compatibility FULL_TRANSITIVE (ADR 0005).
// Run it at each release, before the producers of that release start:
//   npm run schemas:register -- --url http://registry:8080/apis/ccompat/v7 [--topic-prefix PREFIX] [--timeout-ms 10000]
// --url and --topic-prefix default to SCHEMA_REGISTRY_URL and KAFKA_TOPIC_PREFIX, as the apps read them.
// Reads the catalogue from the built package: the npm script builds it first.
import { parseArgs } from 'node:util';
import { createSchemaRegistryClient, registerSchemas } from '../dist/index.js';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: process.env.SCHEMA_REGISTRY_URL },
    'topic-prefix': { type: 'string', default: process.env.KAFKA_TOPIC_PREFIX ?? '' },
    'timeout-ms': { type: 'string', default: '10000' },
  },
});
if (!values.url || !/^https?:\/\//.test(values.url)) {
  console.error(
    'usage: npm run schemas:register -- --url <registry API root, e.g. http://127.0.0.1:8081/apis/ccompat/v7> [--topic-prefix PREFIX]',
  );
  process.exit(2);
}
const client = createSchemaRegistryClient({ url: values.url, timeoutMs: Number(values['timeout-ms']) });
try {
  const registered = await registerSchemas(client, { topicPrefix: values['topic-prefix'] });
  for (const { subject, id } of registered) console.log(`${subject} -> id ${id}`);
  console.log(`${registered.length} subjects registered at ${client.url}`);
} catch (error) {
  console.error(`schema registration failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
