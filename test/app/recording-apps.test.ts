// A recording on each demo app through the local API (record.* and the mirror's devices.* methods), on the real adb
// server and the demo phone: each kept flow, exported as a file, passes the flow check and names every element by a
// locator (no bare point where a locator is unique).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { centreOnPhone } from '../support/node-centre';
import { isolatedEnv, removeHome, startTestApp, type TestApp } from './app-fixture';
import { runAmc } from '../support/cli';
import { parseMaestroFlow } from '../../src/core/flows/maestro-file';

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

/** What a person does on each app: taps by what they read (`#id` by resource id), typing as `type:…`. */
const RECORDINGS: Array<{ app: string; inputs: string[] }> = [
  { app: 'Settings', inputs: ['Settings', 'Network & internet', 'Wi-Fi'] },
  { app: 'Contacts', inputs: ['Contacts', 'Bob Smith'] },
  { app: 'Clock', inputs: ['Clock', 'Stopwatch'] },
  { app: 'Notes', inputs: ['Notes', 'Ideas'] },
  { app: 'Messages', inputs: ['Messages', 'Bob Smith'] },
  { app: 'Chrome', inputs: ['Chrome', '#url_bar', 'type:news'] },
];

describe('recordings on every demo app', () => {
  it('Scenario: A recording on each demo app passes the flow check with no bare point where a locator is unique', { timeout: 240_000 }, async () => {
    const serial = harness.serial;
    for (const { app: name, inputs } of RECORDINGS) {
      await harness.control('/reset', { body: { contactsPermission: 'granted' } });
      await app.call('record.start', { serial });
      for (const input of inputs) {
        if (input.startsWith('type:')) await app.call('devices.typeText', { serial, text: input.slice(5) });
        else await app.call('devices.tap', { serial, ...(await centreOnPhone(harness, input)) });
      }
      const { recording } = await app.call('record.status', { serial });
      // Typing joins into one step; every tap is named by a locator, never kept as a point.
      expect(recording!.steps, name).toHaveLength(inputs.length);
      expect(recording!.steps.filter((step) => step.note === 'point'), name).toEqual([]);
      const { taskId } = await app.call('record.stop', { serial, goal: `Open ${name}` });

      const exported = await app.call('flows.fromTask', { id: taskId });
      expect(exported.text, name).not.toMatch(/\bpoint:/);
      expect(exported.text, name).toMatch(/launch_app/);
      const checked = await app.call('flows.check', { text: exported.text, vars: {} });
      expect(checked, `${name}:\n${exported.text}`).toMatchObject({ ok: true });
      // `amc flow export ID` reads the same kept flow; Maestro's words too, where its selectors can name the elements.
      const cli = await runAmc(['flow', 'export', taskId, '--format', 'maestro'], { env: { ANDROID_ADB_SERVER_PORT: String(harness.adbPort), HOME: harness.env.HOME, AMC_HOME: app.home } });
      if (name === 'Settings') {
        expect(cli.code, cli.stderr).toBe(0);
        expect(cli.stdout).toMatch(/launchApp[\s\S]*tapOn[\s\S]*Network & internet[\s\S]*tapOn[\s\S]*Wi-Fi/);
        expect(parseMaestroFlow(cli.stdout).ok).toBe(true);
      }
    }
  });
});
