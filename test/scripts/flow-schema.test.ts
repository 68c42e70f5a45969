// The editor's JSON Schema for flow files is generated from the zod schemas; npm test fails when it is stale.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { currentFlowSchema, FLOW_SCHEMA_FILE } from '../../scripts/flow-schema';

describe('flow file JSON Schema', () => {
  it('Scenario: The editor schema is the flow schema, generated', () => {
    expect(readFileSync(FLOW_SCHEMA_FILE, 'utf8'), 'docs/flow.schema.json is stale: run `npx tsx scripts/flow-schema.ts`').toBe(currentFlowSchema());
    const schema = JSON.parse(currentFlowSchema()) as { required: string[]; properties: { steps: { items: { anyOf: { properties?: Record<string, unknown> }[] } } } };
    expect(schema.required).toEqual(expect.arrayContaining(['goal', 'steps']));
    const forms = schema.properties.steps.items.anyOf.flatMap((form) => Object.keys(form.properties ?? {}));
    // The long form, the person's steps, and one short form per tool.
    expect(forms).toEqual(expect.arrayContaining(['tool', 'ai', 'assert', 'ask_ai', 'tap', 'type_text', 'launch_app', 'press_key', 'swipe', 'wait']));
  });
});
