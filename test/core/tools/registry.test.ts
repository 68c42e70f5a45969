// Every tool in the registry, run once through the Executor against the demo phone (real adb server + virtual
// device), with what it should have changed read back from the phone itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AdbClient } from '../../../src/core/device/adb-client';
import { Observer } from '../../../src/core/perception/observer';
import { Executor } from '../../../src/core/tools/executor';
import { ACTION_TOOL_NAMES, ACTION_TOOL_SPECS, ACTION_TOOLS, MODEL_TOOL_SPECS, toolActsOnPhone } from '../../../src/core/tools/registry';
import { defineTool } from '../../../src/core/tools/tool';
import type { StepOutcome } from '../../../src/shared/action';
import type { Scene, SceneElement } from '../../../src/shared/scene';
import type { PhoneStateView } from '@amc/demo-phone';
import { startAdbHarness, type AdbHarness } from '../../support/adb-harness';

let harness: AdbHarness;
let executor: Executor;
let observer: Observer;
let scene: Scene;
let shownBeforeSwipe = '';

beforeAll(async () => {
  harness = await startAdbHarness();
  const adb = await AdbClient.create({ port: harness.adbPort, env: harness.env });
  observer = new Observer(adb, { screenshot: false });
  executor = new Executor(adb, { initialBackoffMs: 20 });
});
afterAll(async () => {
  await harness?.stop();
});

async function observe(): Promise<Scene> {
  const observation = await observer.observe(harness.serial);
  if (!observation.scene) throw new Error(observation.sceneError);
  scene = observation.scene;
  return scene;
}

async function state(): Promise<PhoneStateView> {
  return (await harness.control<PhoneStateView>('/state')).body;
}

function find(label: string): SceneElement {
  const element = scene.elements.find((e) => e.text === label || e.desc === label || e.resourceId === label || e.text?.startsWith(`${label} | `));
  if (!element) throw new Error(`no "${label}" on the screen`);
  return element;
}

async function act(name: string, args: Record<string, unknown>): Promise<StepOutcome> {
  const outcome = await executor.execute({ name, args }, { serial: harness.serial, scene });
  expect(outcome, `${name} ${JSON.stringify(args)}`).toMatchObject({ ok: true });
  await observe();
  return outcome;
}

interface Exercise {
  /** Brings the phone to where the tool has something to do (with other tools). */
  prepare?: () => Promise<void>;
  args: () => Record<string, unknown>;
  /** What the phone says changed (or, for tools that do not act, that nothing did). */
  check: (before: PhoneStateView, after: PhoneStateView, outcome: StepOutcome) => void | Promise<void>;
}

/** One exercise per registered tool: a tool added to the registry without one fails the test below. */
const EXERCISES: Record<string, Exercise> = {
  tap: {
    args: () => ({ element_id: find('Settings').id }),
    check: (before, after) => {
      expect(before.foreground).toBe('com.android.launcher3');
      expect(after.foreground).toBe('com.android.settings');
    },
  },
  long_press: {
    prepare: () => act('launch_app', { app: 'Notes' }).then(() => undefined),
    args: () => ({ element_id: find('Shopping list').id }),
    check: (before, after) => {
      expect(before.dialog).toBeNull();
      expect(after.dialog).toBe('Delete note?');
    },
  },
  swipe: {
    prepare: () => act('launch_app', { app: 'Settings' }).then(() => undefined),
    args: () => {
      shownBeforeSwipe = scene.elements.map((e) => e.text).filter(Boolean).join('|');
      return { direction: 'up', element_id: scene.elements.find((e) => e.scrollable)!.id };
    },
    check: (before, after) => {
      // The phone keeps scroll offsets in its view, not its data: what it shows now is the evidence.
      expect(after.foreground).toBe(before.foreground);
      expect(scene.elements.map((e) => e.text).filter(Boolean).join('|')).not.toBe(shownBeforeSwipe);
    },
  },
  type_text: {
    prepare: async () => {
      await act('launch_app', { app: 'Notes' });
      await act('tap', { element_id: find('New note').id });
    },
    args: () => ({ element_id: find('note_title').id, text: 'From the registry' }),
    check: async (_before, after) => {
      expect(after.focusedField).toMatch(/note_title$/);
      expect(after.keyboardShown).toBe(true);
      await act('press_key', { key: 'back' });
      await act('tap', { element_id: find('Save').id });
      expect((await state()).notes.at(-1)).toEqual({ title: 'From the registry', body: '' });
    },
  },
  press_key: {
    prepare: () => act('launch_app', { app: 'Clock' }).then(() => undefined),
    args: () => ({ key: 'home' }),
    check: (before, after) => {
      expect(before.foreground).toBe('com.android.deskclock');
      expect(after.foreground).toBe('com.android.launcher3');
    },
  },
  launch_app: {
    args: () => ({ app: 'Contacts' }),
    check: (before, after) => {
      expect(before.foreground).toBe('com.android.launcher3');
      expect(after.foreground).toBe('com.android.contacts');
    },
  },
  stop_app: {
    prepare: async () => {
      await act('launch_app', { app: 'Notes' });
    },
    args: () => ({ app: 'Notes' }),
    check: (before, after) => {
      expect(before.foreground).toBe('com.amc.notes');
      expect(after.foreground).not.toBe('com.amc.notes');
    },
  },
  clear_app: {
    args: () => ({ app: 'com.amc.notes' }),
    check: (before, after) => {
      expect(before.notes.length).toBeGreaterThan(0);
      expect(after.notes).toEqual([]);
    },
  },
  open_url: {
    args: () => ({ url: "https://example.com/it's here?q=a b" }),
    check: (before, after) => {
      expect(before.foreground).toBe('com.android.launcher3');
      expect(after.foreground).toBe('com.android.chrome');
    },
  },
  double_tap: {
    prepare: () => act('launch_app', { app: 'Notes' }).then(() => undefined),
    args: () => ({ element_id: find('Shopping list').id }),
    check: (before, after) => {
      // The first tap opens the note; the second lands, at once, on the title field now under the finger.
      expect(before.focusedField).toBeNull();
      expect(after.focusedField).toMatch(/note_title$/);
      expect(after.notes).toEqual(before.notes);
    },
  },
  erase_text: {
    prepare: async () => {
      await act('launch_app', { app: 'Notes' });
      await act('tap', { element_id: find('Shopping list').id });
      await act('tap', { element_id: find('note_title').id });
    },
    args: () => ({ count: 5 }),
    check: async (before, after) => {
      expect(before.focusedField).toMatch(/note_title$/);
      expect(after.focusedField).toMatch(/note_title$/);
      await act('press_key', { key: 'back' });
      await act('tap', { element_id: find('Save').id });
      expect((await state()).notes[0]).toEqual({ title: 'Shopping', body: 'Milk, eggs, bread' });
    },
  },
  hide_keyboard: {
    prepare: async () => {
      await act('launch_app', { app: 'Notes' });
      await act('tap', { element_id: find('New note').id });
      await act('tap', { element_id: find('note_title').id });
    },
    args: () => ({}),
    check: async (before, after) => {
      expect(before.keyboardShown).toBe(true);
      expect(after.keyboardShown).toBe(false);
      expect(after.foreground).toBe('com.amc.notes');
      // With no keyboard showing it presses nothing: the editor stays open.
      await act('hide_keyboard', {});
      expect(scene.elements.some((element) => element.resourceId === 'note_title')).toBe(true);
    },
  },
  wait: {
    args: () => ({ seconds: 0.1 }),
    check: (before, after, outcome) => {
      expect(outcome.attempts).toBe(0);
      expect(after).toEqual(before);
    },
  },
  describe_screen: {
    args: () => ({}),
    check: (before, after, outcome) => {
      expect(outcome.attempts).toBe(0);
      expect(after).toEqual(before);
    },
  },
};

describe('tool registry', () => {
  it('Scenario: Every registered tool runs on the demo phone', async () => {
    expect(ACTION_TOOL_NAMES.length).toBeGreaterThan(0);
    expect(Object.keys(EXERCISES).sort()).toEqual([...ACTION_TOOL_NAMES].sort());
    for (const name of ACTION_TOOL_NAMES) {
      await harness.control('/reset', { method: 'POST' });
      await observe();
      const exercise = EXERCISES[name]!;
      await exercise.prepare?.();
      const before = await state();
      const outcome = await act(name, exercise.args());
      expect(outcome.attempts > 0, `${name} sends to the phone`).toBe(toolActsOnPhone(name));
      await exercise.check(before, await state(), outcome);
    }
  });

  it('Scenario: The registry decides what the model is offered and what acts on the phone', () => {
    expect(new Set(ACTION_TOOL_NAMES).size).toBe(ACTION_TOOL_NAMES.length);
    expect(ACTION_TOOL_SPECS.map((spec) => spec.name)).toEqual(ACTION_TOOL_NAMES);
    const offered = ACTION_TOOL_NAMES.filter((name) => ACTION_TOOLS.get(name)!.offeredTo.includes('model'));
    // The phone's tools offered to the model, then the ones the runtime answers, from the same catalog.
    expect(MODEL_TOOL_SPECS.map((spec) => spec.name)).toEqual([...offered, 'ask_user', 'hand_over', 'finish_task']);
    expect(offered).not.toContain('describe_screen');
    expect(ACTION_TOOL_NAMES.filter((name) => !toolActsOnPhone(name))).toEqual(['wait', 'describe_screen']);
    expect(toolActsOnPhone('finish_task')).toBe(false);
  });

  it('a tool without run does not compile, and run sees its arguments typed from the schema', () => {
    const facts = { name: 'probe', title: 'Probe', description: 'a probe', aim: 'none' as const, offeredTo: [], effects: { target: 'nothing' as const } };
    // @ts-expect-error run is required
    defineTool({ ...facts, schema: z.strictObject({}) });
    const typed = defineTool({
      ...facts,
      schema: z.strictObject({ count: z.number() }),
      // @ts-expect-error `label` is not an argument of this schema
      run: async (args) => (args.label, undefined),
    });
    expect(typed.spec.inputSchema.required).toEqual(['count']);
  });
});
