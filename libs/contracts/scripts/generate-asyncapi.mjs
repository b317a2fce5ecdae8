// Writes docs/asyncapi.yaml from the topic catalogue and schemas/ (with --check: fails when it is stale).
// Reads the catalogue from the built package: `npm run asyncapi:gen` builds it first.
import fs from 'node:fs';
import path from 'node:path';
import { buildAsyncApiDocument } from '../dist/asyncapi.js';
import { asyncApiFile, asyncApiInputs, renderAsyncApi } from './asyncapi-files.mjs';
import { repoRoot } from './schema-files.mjs';

const content = renderAsyncApi(buildAsyncApiDocument(asyncApiInputs()));
const existing = fs.existsSync(asyncApiFile) ? fs.readFileSync(asyncApiFile, 'utf8') : '';
const target = path.relative(repoRoot, asyncApiFile);
if (existing === content) {
  console.log(`${target} is up to date`);
} else if (process.argv.includes('--check')) {
  console.error(`${target} is out of date: run npm run asyncapi:gen`);
  process.exit(1);
} else {
  fs.writeFileSync(asyncApiFile, content);
  console.log(`wrote ${target}`);
}
