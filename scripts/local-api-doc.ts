// Writes the method and event lists of docs/local-api.md from the contract (src/shared/contract), between the
// GENERATED markers; `--check` fails when the file is not current (test/docs/local-api.test.ts runs it).
//   npx tsx scripts/local-api-doc.ts [--check]
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { events, methods } from '../src/shared/contract/index';

export const DOC_PATH = fileURLToPath(new URL('../docs/local-api.md', import.meta.url));
const BEGIN = '<!-- BEGIN GENERATED: npx tsx scripts/local-api-doc.ts -->';
const END = '<!-- END GENERATED -->';

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  additionalProperties?: JsonSchema | boolean;
};

/** A JSON Schema as a short TypeScript-like type, nested objects one level deep. */
function typeOf(schema: JsonSchema, depth = 0): string {
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.length > 6 ? `string (one of ${schema.enum.length} names)` : schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return variants.map((variant) => typeOf(variant, depth)).join(' | ');
  if (Array.isArray(schema.type)) return schema.type.join(' | ');
  switch (schema.type) {
    case 'array':
      return `${schema.items ? wrap(typeOf(schema.items, depth)) : 'unknown'}[]`;
    case 'object': {
      const properties = Object.entries(schema.properties ?? {});
      if (properties.length === 0) return typeof schema.additionalProperties === 'object' ? `Record<string, ${typeOf(schema.additionalProperties, depth)}>` : '{}';
      if (depth >= 1) return '{…}';
      const required = new Set(schema.required ?? []);
      return `{ ${properties.map(([name, value]) => `${name}${required.has(name) ? '' : '?'}: ${typeOf(value, depth + 1)}`).join(', ')} }`;
    }
    case 'integer':
      return 'integer';
    default:
      return schema.type ?? 'unknown';
  }
}

const wrap = (type: string) => (type.includes(' ') && !type.startsWith('{') ? `(${type})` : type);
const schemaOf = (type: z.ZodType, io: 'input' | 'output') => z.toJSONSchema(type, { io, unrepresentable: 'any' }) as JsonSchema;
const cell = (text: string) => `\`${text.replace(/\|/g, '\\|')}\``;

export function generatedSection(): string {
  const methodRows = Object.entries(methods).map(
    ([name, definition]) => `| \`${name}\` | ${cell(typeOf(schemaOf(definition.input, 'input')))} | ${cell(typeOf(schemaOf(definition.output, 'output')))} |`,
  );
  const eventRows = Object.entries(events).map(([name, payload]) => `| \`${name}\` | ${cell(typeOf(schemaOf(payload, 'output')))} |`);
  return [
    BEGIN,
    '',
    `### Methods (${methodRows.length})`,
    '',
    '| method | input | value of a successful result |',
    '|---|---|---|',
    ...methodRows,
    '',
    `### Events (${eventRows.length})`,
    '',
    '| event | payload |',
    '|---|---|',
    ...eventRows,
    '',
    END,
  ].join('\n');
}

export function withGeneratedSection(doc: string): string {
  const start = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${DOC_PATH} lacks the GENERATED markers`);
  return doc.slice(0, start) + generatedSection() + doc.slice(end + END.length);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const doc = await readFile(DOC_PATH, 'utf8');
  const current = withGeneratedSection(doc);
  if (process.argv.includes('--check')) {
    if (current !== doc) {
      console.error('docs/local-api.md is out of date with the contract: run `npx tsx scripts/local-api-doc.ts`.');
      process.exit(1);
    }
  } else {
    await writeFile(DOC_PATH, current);
  }
}
