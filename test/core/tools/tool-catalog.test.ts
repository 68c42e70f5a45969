import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ACTION_TOOLS, catalogWith, MODEL_TOOL_SPECS } from '../../../src/core/tools/registry';
import { defineTool, type ActionTool } from '../../../src/core/tools/tool';
import { hintsOf } from '../../../src/mcp/server';
import { takesTarget } from '../../../src/core/flows/flow-file-schema';
import { createReplayPlanner } from '../../../src/core/flows/replay-planner';
import { FlowSchema } from '../../../src/shared/flow';
import { pointArgs } from '../../../src/core/tools/actions/arguments';
import { sceneWith } from '../runtime/doubles';

/** A tool no registry knows, declared as a new tool file would declare it: a triple tap on one element. */
const tripleTap = defineTool({
  name: 'triple_tap',
  title: 'Triple-tap',
  description: 'Tap three times quickly. Give element_id, or x and y.',
  aim: 'element',
  offeredTo: ['model', 'agent'],
  schema: z.strictObject(pointArgs),
  effects: { target: 'element', verb: 'triple-taps', verifies: 'screen-changed' },
  async run(args, context) {
    const target = await context.aimAt(args, 'triple_tap');
    await context.send(Array<string>(3).fill(`input tap ${target.x} ${target.y}`).join('; '));
    return target;
  },
});

/** A scroll-like tool: its calls land on a region, so a replay may take it without naming an element. */
const fling = defineTool({
  name: 'fling',
  title: 'Fling',
  description: 'Fling the content up.',
  aim: 'region',
  offeredTo: ['agent'],
  schema: z.strictObject({}),
  effects: { target: 'element', verifies: 'screen-changed' },
  run: async (_args, context) => (await context.send('input swipe 500 1800 500 300 80'), undefined),
});

async function firstDecision(tool: ActionTool, args: Record<string, unknown>) {
  const flow = FlowSchema.parse({ goal: 'Try it', steps: [{ tool: tool.name, args }] });
  const planner = createReplayPlanner({ flow, source: 'replayed', tools: catalogWith(tool) });
  return planner.plan({ goal: 'Try it', step: 1, scene: sceneWith('A', 'B'), sceneError: null }, { signal: new AbortController().signal });
}

describe('the tool catalog: one declaration, every reader', () => {
  it("Scenario: A tool's title, aim and audience reach MCP, flows and replay from its definition", async () => {
    // Every registered tool: MCP's hints follow its declared effects, flows' targets its aim, the model's list its audience.
    for (const tool of ACTION_TOOLS.values()) {
      expect(tool.title, tool.name).toMatch(/\w/);
      expect(hintsOf(tool).readOnlyHint, tool.name).toBe(!tool.actsOnPhone);
      expect(takesTarget(tool.name), tool.name).toBe(tool.aim !== 'none');
      expect(MODEL_TOOL_SPECS.some((spec) => spec.name === tool.name), tool.name).toBe(tool.offeredTo.includes('model'));
    }
    // A new tool, declared in one file: a tap-like call changes the phone; a scroll changes no data.
    expect(hintsOf(tripleTap)).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true });
    expect(hintsOf(fling)).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    // A replay never aims the new element tool at a point it cannot name, and takes the region tool as written.
    const unnamed = await firstDecision(tripleTap, {});
    expect(unnamed).toMatchObject({ kind: 'fail', reason: expect.stringMatching(/^Step 1: .*names no element, and a replay does not act on a point it cannot name/) });
    expect(await firstDecision(fling, {})).toMatchObject({ kind: 'act', call: { tool: 'fling', source: 'replayed' } });
  });
});
