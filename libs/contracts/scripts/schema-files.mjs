import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const schemasDir = path.join(repoRoot, 'schemas');
export const historyDir = path.join(schemasDir, 'history');

/** Current schemas: schemas/<domain>/{commands,events}/<Record>.avsc (history/ holds released versions). */
export function listCurrentSchemaFiles() {
  const out = [];
  for (const domain of fs.readdirSync(schemasDir).sort()) {
    if (domain === 'history') continue;
    for (const kind of ['commands', 'events']) {
      const dir = path.join(schemasDir, domain, kind);
      if (!fs.existsSync(dir)) continue;
      for (const file of fs.readdirSync(dir).sort()) {
        if (file.endsWith('.avsc')) out.push({ domain, kind, file: path.join(dir, file) });
      }
    }
  }
  return out;
}

export function readSchema(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}
