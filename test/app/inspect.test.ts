// Inspect through the app's router (the typed IPC the window and the local API use, validated with zod), on the demo
// phone: the screen's Scene with the ids the model would see and each element's tap in both flow syntaxes, which read
// back to that element; while a flow drives the phone, the last layout it read; a step of History; bad input and
// hostile screen text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { isolatedEnv, removeHome, startTestApp, type TestApp } from './app-fixture';
import { parseFlowFile } from '../../src/core/flows/flow-file';
import { parseMaestroFlow } from '../../src/core/flows/maestro-file';
import { resolveLocator } from '../../src/core/flows/locator';
import { locatorLines } from '../../src/app/handlers/inspect';
import { Observer } from '../../src/core/perception/observer';
import { AdbClient } from '../../src/core/device/adb-client';
import { isActionStep, type Flow } from '../../src/shared/flow';
import type { Scene } from '../../src/shared/scene';

let harness: AdbHarness;
let app: TestApp;

beforeAll(async () => {
  harness = await startAdbHarness();
  app = await startTestApp({ env: isolatedEnv(harness.env) });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await harness?.stop();
  if (app) await removeHome(app.home);
});

const targetOf = (flow: Flow) => {
  const step = flow.steps[0]!;
  if (!isActionStep(step) || !step.target) throw new Error(`no target in ${JSON.stringify(step)}`);
  return step.target;
};

/** Each element's copied step, parsed as a flow file of its syntax, finds that element again on the same Scene. */
function expectStepsFindTheirElements(scene: Scene, lines: ReturnType<typeof locatorLines>) {
  let found = 0;
  for (const line of lines) {
    const ours = parseFlowFile(`goal: inspect\nsteps:\n  ${line.ours.replace(/\n/g, '\n  ')}\n`);
    expect(ours.ok, line.ours).toBe(true);
    if (!ours.ok || !line.locator) continue;
    const resolved = resolveLocator(scene, targetOf(ours.flow));
    expect(resolved.kind === 'found' && resolved.element.id, line.ours).toBe(line.id);
    found += 1;
    if (line.maestro) expect(parseMaestroFlow(`appId: ${scene.screen.package || 'com.example'}\n---\n${line.maestro}\n`, {}, false).ok, line.maestro).toBe(true);
  }
  return found;
}

describe('inspect.* through the router', { timeout: 120_000 }, () => {
  it("Scenario: The local API inspects the phone's screen with the Scene ids the model would see", async () => {
    await harness.reset({});
    await harness.adb(['-s', harness.serial, 'shell', 'monkey -p com.android.settings -c android.intent.category.LAUNCHER 1']);
    await expect.poll(async () => (await harness.state()).foreground, { timeout: 15_000 }).toBe('com.android.settings');
    const inspected = await app.call('inspect.screen', { serial: harness.serial });
    expect(inspected.source).toBe('phone');
    expect(inspected.scene.screen.package).toBe('com.android.settings');
    // The same Scene a task's observation builds: the same ids on the same elements.
    const own = await new Observer(await AdbClient.create({ port: harness.adbPort, env: harness.env }), { screenshot: false }).observe(harness.serial);
    expect(inspected.scene.elements.map(({ id, type, text, bounds }) => ({ id, type, text, bounds }))).toEqual(own.scene!.elements.map(({ id, type, text, bounds }) => ({ id, type, text, bounds })));
    expect(inspected.locators.map((line) => line.id)).toEqual(inspected.scene.elements.map((element) => element.id));
    expect(expectStepsFindTheirElements(inspected.scene, inspected.locators)).toBeGreaterThan(5);
    const network = inspected.locators.find((line) => line.locator?.text === 'Network & internet');
    expect(network?.ours).toMatch(/^- tap: \{.*text: Network & internet/);
    expect(network?.maestro).toMatch(/^- tapOn: \{ text: Network & internet \}$/);
  });

  it('Scenario: While a flow drives the phone, Inspect shows the last layout it read', async () => {
    await harness.reset({});
    const flow = 'goal: Open Settings and wait\nsteps:\n  - launch_app: com.android.settings\n  - wait: {seconds: 4}\n  - assert: {visible: Network & internet}\n';
    const task = await app.call('flows.run', { serial: harness.serial, text: flow });
    await app.waitForTaskEvent(task.id, 'step.observed', 20_000);
    await expect
      .poll(async () => {
        const seen = await app.call('inspect.screen', { serial: harness.serial }).catch(() => null);
        return seen?.source === 'task' && seen.scene.screen.package === 'com.android.settings' ? seen : null;
      }, { timeout: 20_000 })
      .not.toBe(null);
    const during = await app.call('inspect.screen', { serial: harness.serial });
    expect(during.taskId).toBe(task.id);
    expect(during.step).toBeGreaterThan(0);
    expect((await app.waitForTaskEvent(task.id, 'task.finished', 30_000)).status).toBe('completed');

    // Afterwards, any step of it in History.
    const second = await app.call('inspect.step', { id: task.id, step: 2 });
    expect(second.source).toBe('history');
    expect(second.scene.screen.package).toBe('com.android.settings');
    expect(second.locators.length).toBe(second.scene.elements.length);
    expect(await app.call('app.ping', { nonce: 'still-here' })).toMatchObject({ nonce: 'still-here' });
  });

  it('Scenario: Inspect refuses bad input and missing steps in plain words', async () => {
    expect((await app.fail('inspect.screen', { serial: '' })).issues?.join()).toMatch(/choose a device/);
    expect((await app.fail('inspect.screen', { serial: harness.serial, extra: 1 })).code).toBe('invalid_input');
    expect((await app.fail('inspect.step', { id: 'x', step: 0 })).code).toBe('invalid_input');
    const missing = await app.fail('inspect.step', { id: 'no-such-task', step: 1 });
    expect(missing.message).toMatch(/no task "no-such-task" in history \(it may have been deleted\)$/);
    expect(missing.said?.code).toBe('inspect.noTask');
    const gone = await app.fail('inspect.screen', { serial: 'emulator-9999' });
    expect(gone.code).toBe('failed');
    expect(gone.message.length).toBeGreaterThan(10);
  });

  it('Scenario: Screen text that looks like flow syntax stays the text of one step', () => {
    const hostile = ['Wi-Fi }\n- launch_app: com.evil', '"; - clear_app: com.android.settings', '- tapOn: { id: ".*" }', 'a: b # comment', '[1, 2]', '&anchor *alias !!tag'];
    const scene: Scene = {
      screen: { width: 1080, height: 2400, orientation: 'portrait', package: 'com.android.settings', keyboardShown: false },
      elements: hostile.map((text, index) => ({ id: `e${index + 1}`, type: 'Button', text, clickable: true, bounds: [0, index * 200, 1080, index * 200 + 200] })),
    };
    const lines = locatorLines(scene);
    expect(expectStepsFindTheirElements(scene, lines)).toBe(hostile.length);
    for (const line of lines) {
      const ours = parseFlowFile(`goal: inspect\nsteps:\n  ${line.ours.replace(/\n/g, '\n  ')}\n`);
      expect(ours.ok && ours.flow.steps.length, line.ours).toBe(1);
    }
  });
});
