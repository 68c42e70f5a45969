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
import { startAdbHarness, type AdbHarness } from '../../support/adb-harness';
import { act, done, ScriptedPlanner, step } from './doubles';

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
    // Turn 2 saw the browser, went back and planned nothing; turn 3's planner input says why.
    expect(record.steps[1]!.scene?.screen.package).toBe(BROWSER);
    expect(record.steps[1]!.planned).toBeNull();
    expect(planner.inputs).toHaveLength(2);
    expect(planner.inputs[1]!.notices?.join('\n')).toMatch(/opened com\.android\.chrome, which is not among this task's allowed apps \(com\.android\.settings\); the runtime went back out of it/);
    expect(events.filter((event) => event.type === 'guard.decided')).toEqual([
      expect.objectContaining({ guard: 'scope', finding: 'outside-allowed-apps', decision: 'warn', by: 'runtime', step: 2 }),
    ]);
    const phone = await harness.state();
    expect(phone.foreground).not.toBe(BROWSER);
    expect(phone.foreground).toMatch(/launcher/);
  }, 60_000);
});
