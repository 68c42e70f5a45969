import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ACTION_TOOLS, catalogWith, MODEL_TOOL_SPECS, TOOL_CATALOG } from '../../../src/core/tools/registry';
import { defineTool, type ActionTool } from '../../../src/core/tools/tool';
import { hintsOf } from '../../../src/mcp/server';
import { takesTarget } from '../../../src/core/flows/flow-file-schema';
import { createReplayPlanner } from '../../../src/core/flows/replay-planner';
import { FlowSchema } from '../../../src/shared/flow';
import { pointArgs } from '../../../src/core/tools/actions/arguments';
import { sceneWith } from '../runtime/doubles';
import { parseFlowFile } from '../../../src/core/flows/flow-file';
import { buildPlanner } from '../../../src/core/runtime/build-planner';
import { FinishTaskArgsSchema } from '../../../src/core/tools/person-tools';
import { defineRuntimeTool, toolInputSchema } from '../../../src/core/tools/tool';
import { actionPhrase } from '../../../src/shared/action-words';
import { CATALOGS } from '../../../src/shared/i18n/catalogs';
import { wordsFor } from '../../../src/shared/i18n/translate';
import { defaultSettings, mergeSettings, SettingsSchema } from '../../../src/shared/settings';
import { TOOL_VOCABULARY, toolWords } from '../../../src/shared/tool-vocabulary';
import { isAction } from '../../../src/shared/turns';
import { finish, sequencePolicy, startProviderFake, type ProviderFake } from '../../fakes/index';

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

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((close) => close()));
});

/** Whether a flow file with this tool as its one step is refused for naming no tool. */
function flowRefusesTool(name: string): boolean {
  const read = parseFlowFile(`goal: Try it\nsteps:\n  - tool: ${name}\n    args: {}\n`);
  return !read.ok && read.problems.some((problem) => problem.said?.code === 'flowFile.notATool');
}

/** The tools a provider's request offered, by name, and their input schemas (Anthropic's and OpenAI's shapes). */
function offeredTools(fake: ProviderFake): Map<string, unknown> {
  const body = fake.bodies()[0] as { tools: Array<{ name?: string; input_schema?: unknown; function?: { name: string; parameters: unknown } }> };
  return new Map(body.tools.map((tool) => (tool.function ? [tool.function.name, tool.function.parameters] : [tool.name!, tool.input_schema])));
}

describe('one catalog: the phone tools, the person tools and finish_task', () => {
  it('Scenario: Every tool of the catalog is covered by each reader from its declared kind', () => {
    const chinese = wordsFor('zh-CN');
    // The vocabulary names exactly the catalog's tools: no tool without a kind and words, no words without a tool.
    expect(Object.keys(TOOL_VOCABULARY).sort()).toEqual([...TOOL_CATALOG.keys()].sort());
    for (const tool of TOOL_CATALOG.values()) {
      const { name, kind } = tool;
      expect(kind, name).toBe(toolWords(name)!.kind);
      // Its verb in both languages, and its call in words in each (no tool name, no JSON, the Chinese not English).
      for (const language of ['en', 'zh-CN'] as const) {
        const verb = (CATALOGS[language].common.action.verb as Record<string, { do: string; done: string } | undefined>)[name];
        expect(verb?.do, `${name} in ${language}`).toMatch(/\S/);
        expect(verb?.done, `${name} in ${language}`).toMatch(/\S/);
      }
      const english = actionPhrase(name, {});
      expect(english, name).not.toMatch(new RegExp(`${name}|[{}]`));
      expect(actionPhrase(name, {}, undefined, 'done', chinese), name).toMatch(/\p{Script=Han}/u);
      // A recorded turn with an outcome counts as an action only when the phone was touched or looked at.
      expect(isAction({ planned: { tool: name }, outcome: { ok: true, attempts: 1, durationMs: 1 } }), name).toBe(kind === 'phone' || kind === 'look');
      // The Executor, flows and MCP's `act` know the phone's tools; the runtime answers the others.
      const onThePhone = kind === 'phone' || kind === 'look' || kind === 'wait';
      expect(ACTION_TOOLS.has(name), name).toBe(onThePhone);
      expect(flowRefusesTool(name), name).toBe(!onThePhone);
      if (onThePhone) expect(ACTION_TOOLS.get(name)!.actsOnPhone, name).toBe(kind === 'phone');
      else expect(tool.offeredTo, name).not.toContain('agent');
      // The model is offered the tool's own spec when its audience says so.
      expect(MODEL_TOOL_SPECS.find((spec) => spec.name === name), name).toBe(tool.offeredTo.includes('model') ? tool.spec : undefined);
    }
    expect(flowRefusesTool('fly_away')).toBe(true);
  });

  it("a definition cannot give a tool another kind than the vocabulary's", () => {
    const facts = { title: 'X', description: 'x', aim: 'none', offeredTo: [], schema: z.strictObject({}) } as const;
    // finish_task is answered by the runtime: it cannot be declared as a tool the phone runs, nor tap as one the runtime answers.
    expect(() => defineTool({ ...facts, name: 'finish_task', effects: { target: 'nothing' }, run: async () => undefined })).toThrow(/answered by the runtime/);
    expect(() => defineRuntimeTool({ ...facts, name: 'tap' })).toThrow(/tap is a phone tool/);
    expect(defineRuntimeTool({ ...facts, name: 'ask_user' }).kind).toBe('question');
  });

  it.each(['anthropic', 'openai'] as const)('Scenario: finish_task and the person tools reach the model from the catalog (%s)', async (provider) => {
    const fake = await startProviderFake(provider, sequencePolicy(finish(true, 'ok')));
    cleanups.push(() => fake.close());
    const key = provider === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY';
    const settings = SettingsSchema.parse(mergeSettings(defaultSettings(), { aiPlanner: { enabled: true, provider, transport: 'direct' }, [provider]: { baseURL: fake.baseURL } }));
    const { planner } = buildPlanner({ settings, secrets: { [key]: fake.apiKey }, envOverrides: [] });
    await planner.plan({ goal: 'Turn on Wi-Fi', step: 1, scene: sceneWith('Wi-Fi'), sceneError: null }, { signal: new AbortController().signal });
    const offered = offeredTools(fake);
    expect([...offered.keys()]).toEqual(MODEL_TOOL_SPECS.map((spec) => spec.name));
    expect([...offered.keys()].slice(-3)).toEqual(['ask_user', 'hand_over', 'finish_task']);
    // finish_task's schema is its zod declaration's, as every tool's.
    expect(offered.get('finish_task')).toMatchObject(toolInputSchema(FinishTaskArgsSchema));
    expect(offered.get('ask_user')).toMatchObject({ required: ['question'], additionalProperties: false });
  });
});
