// Tools declare their effects, and the app allow-list holds for whatever leads out of the allowed apps: a probe
// tool defined only in this file (it opens the browser) is refused outside the allow-list, and a tap on a
// launcher icon of an app outside it is undone. Real adb server, adbkit, Observer and Executor against the demo
// phone; the phone's state is read from its control API afterwards.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { TaskEvent } from '../../../src/shared/task';
import { AdbClient } from '../../../src/core/device/adb-client';
import { Observer } from '../../../src/core/perception/observer';
import { Executor } from '../../../src/core/tools/executor';
import { catalogWith } from '../../../src/core/tools/registry';
import { defineTool } from '../../../src/core/tools/tool';
import { TaskRunner } from '../../../src/core/runtime/task-runner';
import { DEFAULT_TASK_POLICIES } from '../../../src/core/runtime/task-policies';
import { renderHistory } from '../../../src/core/runtime/history';
import { renderTaskReport } from '../../../src/core/storage/html-report';
import { actionCount, turnCount } from '../../../src/shared/turns';
import { wordsFor } from '../../../src/shared/i18n/translate';
import { startAdbHarness, type AdbHarness } from '../../support/adb-harness';
import { act, done, finished, ScriptedPlanner, step } from './doubles';

const BROWSER = 'com.android.chrome';
const SETTINGS = 'com.android.settings';

/** A tool no registry knows: it opens a web address, and declares that it brings the browser to the front. */
const openUrl = defineTool({
  name: 'open_url',
  schema: z.strictObject({ url: z.string().regex(/^https?:\/\/[\w.-]+(\/[\w./-]*)?$/) }),
  description: 'Open a web address in the browser.',
  title: 'Open a web address',
  aim: 'none',
  offeredTo: ['model'],
  effects: { target: 'phone', verifies: 'app-in-foreground', opensApp: async () => BROWSER },
  async run(args, context) {
    await context.send(`am start -a android.intent.action.VIEW -d '${args.url}'`);
    return undefined;
  },
});
const tools = catalogWith(openUrl);

let harness: AdbHarness;
let adb: AdbClient;

beforeAll(async () => {
  harness = await startAdbHarness();
  adb = await AdbClient.create({ port: harness.adbPort, env: harness.env });
}, 60_000);
afterAll(async () => harness?.stop());
beforeEach(async () => {
  await harness.reset();
});

function runnerWith(planner: ScriptedPlanner) {
  const runner = new TaskRunner({
    observer: new Observer(adb, { screenshot: false }),
    executor: new Executor(adb, { tools }),
    plannerSource: async () => ({ planner, maxSteps: 10, policies: DEFAULT_TASK_POLICIES }),
    tools,
  });
  const events: TaskEvent[] = [];
  runner.on((event) => events.push(event));
  return { runner, events };
}

describe('tools declare their effects', () => {
  it('Scenario: A tool that declares it opens an app is held to the allow-list', async () => {
    const planner = new ScriptedPlanner((input) => (input.step === 1 ? act(step('open_url', { url: 'https://example.com/' })) : done()));
    const refused = await runnerWith(planner).runner.run({ serial: harness.serial, goal: 'Open example.com', allowedApps: [SETTINGS] });
    expect(refused.status).toBe('completed');
    expect(refused.steps[0]!.outcome).toMatchObject({ ok: false, error: expect.stringMatching(/com\.android\.chrome is not among this task's allowed apps \(com\.android\.settings\); it was not opened/) });
    const phone = await harness.state();
    expect(phone.foreground).not.toBe(BROWSER);
    expect(phone.browser.url).toBeNull();

    // The same call within the allow-list opens the browser: the refusal came from the declaration, not the tool failing.
    const opened = await runnerWith(new ScriptedPlanner((input) => (input.step === 1 ? act(step('open_url', { url: 'https://example.com/' })) : done()))).runner.run({ serial: harness.serial, goal: 'Open example.com', allowedApps: [BROWSER] });
    expect(opened.steps[0]!.outcome).toMatchObject({ ok: true, app: BROWSER, verification: { status: 'verified', check: 'app-in-foreground' } });
    expect((await harness.state()).foreground).toBe(BROWSER);
  }, 60_000);

  it('Scenario: An action that leads out of the allowed apps is undone and the planner told why', async () => {
    expect((await harness.state()).foreground).toMatch(/launcher/);
    const planner = new ScriptedPlanner((input) => {
      if (input.step > 1) return done();
      const icon = input.scene?.elements.find((element) => element.text === 'Chrome' || element.desc === 'Chrome');
      expect(icon, 'the launcher shows a Chrome icon').toBeDefined();
      return act(step('tap', { element_id: icon!.id }));
    });
    const { runner, events } = runnerWith(planner);
    const record = await runner.run({ serial: harness.serial, goal: 'Turn on dark theme', allowedApps: [SETTINGS] });

    expect(record.status).toBe('completed');
    // Turn 2 saw the browser and was the runtime's Back, not the planner's; turn 3's planner input says why.
    expect(record.steps[1]!.scene?.screen.package).toBe(BROWSER);
    expect(record.steps[1]!.planned).toMatchObject({ tool: 'press_key', args: { key: 'back' }, source: 'runtime' });
    expect(planner.inputs).toHaveLength(2);
    expect(planner.inputs[1]!.notices?.join('\n')).toMatch(/opened com\.android\.chrome, which is not among this task's allowed apps \(com\.android\.settings\); the runtime went back out of it/);
    expect(events.filter((event) => event.type === 'guard.decided')).toEqual([
      expect.objectContaining({ guard: 'scope', finding: 'outside-allowed-apps', decision: 'warn', by: 'runtime', step: 2 }),
    ]);
    const phone = await harness.state();
    expect(phone.foreground).not.toBe(BROWSER);
    expect(phone.foreground).toMatch(/launcher/);
  }, 60_000);

  it('Scenario: A runtime Back is its own turn, counted as an action and told apart', async () => {
    // The model misbehaves: it taps the browser's icon in a task limited to Settings, and then claims success.
    const planner = new ScriptedPlanner((input) => {
      if (input.step > 1) return finished('dark theme is on');
      const icon = input.scene?.elements.find((element) => element.text === 'Chrome' || element.desc === 'Chrome');
      return act(step('tap', { element_id: icon!.id }));
    });
    const { runner, events } = runnerWith(planner);
    const record = await runner.run({ serial: harness.serial, goal: 'Turn on dark theme', allowedApps: [SETTINGS] });

    const [tap, back, claim] = record.steps;
    // The tap's facts on its own row: it changed the screen (the browser came up) and was checked there.
    expect(tap).toMatchObject({ planned: { tool: 'tap', source: 'model' }, screenChanged: true, outcome: { ok: true, verification: { status: 'verified', check: 'screen-changed' } } });
    // The Back is turn 2's own action, with its outcome, its check and its screen change on its row.
    expect(back).toMatchObject({ planned: { tool: 'press_key', args: { key: 'back' }, source: 'runtime', rationale: null }, screenChanged: true, outcome: { ok: true, verification: { status: 'verified' } } });
    expect(back!.scene?.screen.package).toBe(BROWSER);
    expect(claim!.planned?.tool).toBe('finish_task');
    expect(claim!.screenChanged).toBeNull();
    // Three turns, two of them actions (the model's tap and the runtime's Back); task.finished says the same.
    expect([turnCount(record), actionCount(record)]).toEqual([3, 2]);
    expect(events.find((event) => event.type === 'task.finished')).toMatchObject({ steps: 2 });
    // Every event of the Back names turn 2, in the order a turn has them (its check once turn 3 has looked).
    expect(events.filter((event) => 'step' in event && event.step === 2).map((event) => event.type)).toEqual(['step.observed', 'step.planned', 'step.executed', 'guard.decided', 'step.verified']);
    expect(events.filter((event) => event.type === 'step.verified').map((event) => event.step)).toEqual([1, 2]);
    // The model's history tells the Back apart from its own steps, and it reflects on its own tap.
    const prompt = renderHistory(planner.inputs[1]!.history!);
    expect(prompt).toMatch(/#2 press_key \{"key":"back"\} -> ok; verified: "the screen changed"; screen changed\n {3}why: \(the runtime's own step, not yours/);
    expect(prompt).toMatch(/did the previous action \(#1 tap\) do what you intended\?/);
    // The report says who took it, in the reader's language.
    const report = renderTaskReport(record, wordsFor('zh-CN'));
    expect(report).toContain('由运行时执行：返回，离开允许范围之外的应用');
    expect(report).toContain('这一步由运行时自己执行，不是模型');
    // The claim rests on the model's own tap (verified), not on the runtime's Back: completed without a guard's doubt.
    expect(record).toMatchObject({ status: 'completed', verification: null });
    const phone = await harness.state();
    expect(phone.foreground).toMatch(/launcher/);
  }, 60_000);
});
