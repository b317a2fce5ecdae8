// Records every current schema version in schemas/history/ so later changes are checked against it.
import fs from 'node:fs';
import path from 'node:path';
import avro from 'avsc';
import { historyDir, listCurrentSchemaFiles, readSchema, repoRoot } from './schema-files.mjs';

fs.mkdirSync(historyDir, { recursive: true });
for (const { file } of listCurrentSchemaFiles()) {
  const schema = readSchema(file);
  const type = avro.Type.forSchema(schema);
  const fp = type.fingerprint('sha256').toString('hex').slice(0, 16);
  const target = path.join(historyDir, `${type.getName()}@${fp}.avsc`);
  if (!fs.existsSync(target)) {
    fs.writeFileSync(target, JSON.stringify(schema, null, 2) + '\n');
    console.log(`released ${path.relative(repoRoot, target)}`);
  }
}
