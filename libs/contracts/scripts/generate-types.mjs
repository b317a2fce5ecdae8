// Generates libs/contracts/src/generated/ from schemas/. Never edit the output by hand.
import fs from 'node:fs';
import path from 'node:path';
import avro from 'avsc';
import { historyDir, listCurrentSchemaFiles, readSchema, repoRoot } from './schema-files.mjs';

const outDir = path.join(repoRoot, 'libs/contracts/src/generated');
const checkOnly = process.argv.includes('--check');

const entries = listCurrentSchemaFiles().map(({ domain, kind, file }) => {
  const schema = readSchema(file);
  const type = avro.Type.forSchema(schema);
  return { domain, kind, schema, fullName: type.getName(), shortName: schema.name, file };
});

const namedTypes = new Map();
function tsType(node, namespace) {
  if (typeof node === 'string') {
    switch (node) {
      case 'null':
        return 'null';
      case 'boolean':
        return 'boolean';
      case 'int':
      case 'long':
      case 'float':
      case 'double':
        return 'number';
      case 'string':
        return 'string';
      case 'bytes':
        return 'Buffer';
      default: {
        const key = node.includes('.') ? node : `${namespace}.${node}`;
        return namedTypes.get(key) ?? namedTypes.get(node) ?? 'unknown';
      }
    }
  }
  if (Array.isArray(node)) return node.map((n) => tsType(n, namespace)).join(' | ');
  switch (node.type) {
    case 'record': {
      const ns = node.namespace ?? namespace;
      const name = node.name.includes('.') ? node.name.split('.').pop() : node.name;
      const fields = node.fields
        .map((f) => `${f.doc ? `  /** ${f.doc} */\n` : ''}  ${f.name}: ${tsType(f.type, ns)};`)
        .join('\n');
      const iface = `{\n${fields}\n}`;
      namedTypes.set(`${ns}.${name}`, iface);
      return iface;
    }
    case 'enum': {
      const union = node.symbols.map((s) => `'${s}'`).join(' | ');
      namedTypes.set(`${node.namespace ?? namespace}.${node.name}`, union);
      return union;
    }
    case 'array':
      return `Array<${tsType(node.items, namespace)}>`;
    case 'map':
      return `Record<string, ${tsType(node.values, namespace)}>`;
    case 'fixed':
      return 'Buffer';
    default:
      return tsType(node.type, namespace);
  }
}

let types = '// Generated from schemas/ by `npm run schemas:gen`. Do not edit.\n\n';
for (const e of entries) {
  const body = tsType(e.schema, e.schema.namespace);
  if (e.schema.doc) types += `/** ${e.schema.doc} */\n`;
  types += `export interface ${e.shortName} ${body}\n\n`;
}
types += 'export interface MessageTypes {\n';
for (const e of entries) types += `  '${e.fullName}': ${e.shortName};\n`;
types += '}\n\nexport type MessageType = keyof MessageTypes;\n\n';
types += 'export const MessageTypeNames = {\n';
for (const e of entries) types += `  ${e.shortName}: '${e.fullName}',\n`;
types += '} as const satisfies Record<string, MessageType>;\n';

let schemas =
  "// Generated from schemas/ by `npm run schemas:gen`. Do not edit.\n\nimport type { Schema } from 'avsc';\n\n";
schemas += 'export const currentSchemas: Record<string, Schema> = {\n';
for (const e of entries) schemas += `  '${e.fullName}': ${JSON.stringify(e.schema)},\n`;
schemas += '};\n\n';
// Every released version, by schema id, so messages written with an older version still decode.
schemas += 'export const releasedSchemas: Record<string, Schema> = {\n';
for (const file of fs.existsSync(historyDir) ? fs.readdirSync(historyDir).sort() : []) {
  const id = file.replace(/\.avsc$/, '').split('@')[1];
  schemas += `  '${id}': ${JSON.stringify(readSchema(path.join(historyDir, file)))},\n`;
}
schemas += '};\n';

const files = { 'types.ts': types, 'schemas.ts': schemas };
let stale = false;
fs.mkdirSync(outDir, { recursive: true });
for (const [name, content] of Object.entries(files)) {
  const target = path.join(outDir, name);
  const existing = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : '';
  if (existing === content) continue;
  if (checkOnly) {
    stale = true;
    console.error(`${path.relative(repoRoot, target)} is out of date: run npm run schemas:gen`);
  } else {
    fs.writeFileSync(target, content);
    console.log(`wrote ${path.relative(repoRoot, target)}`);
  }
}
if (stale) process.exit(1);
