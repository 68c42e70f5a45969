// The JSON Schema editors check flow files with, generated from the flow file's zod schemas
// (src/core/flows/flow-file-schema.ts, built on src/shared/flow.ts and the tool registry).
//   npx tsx scripts/flow-schema.ts          rewrites docs/flow.schema.json
//   npx tsx scripts/flow-schema.ts --check  exits 1 when docs/flow.schema.json is not what the schemas give
// npm test runs the same check (test/scripts/flow-schema.test.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { flowJsonSchema } from '../src/core/flows/flow-file-schema';

export const FLOW_SCHEMA_FILE = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', 'docs', 'flow.schema.json');

export const currentFlowSchema = (): string => `${JSON.stringify(flowJsonSchema(), null, 2)}\n`;

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const current = currentFlowSchema();
  let saved = '';
  try {
    saved = readFileSync(FLOW_SCHEMA_FILE, 'utf8');
  } catch {
    // No file yet: written below, or reported as out of date.
  }
  if (process.argv.includes('--check')) {
    if (current !== saved) {
      console.error('docs/flow.schema.json is out of date: run `npx tsx scripts/flow-schema.ts`.');
      process.exit(1);
    }
    console.log('docs/flow.schema.json is current.');
  } else if (current !== saved) {
    writeFileSync(FLOW_SCHEMA_FILE, current);
    console.log('docs/flow.schema.json updated.');
  }
}
