// A screen that shows `${NAME}` (a price template, a shell prompt) recorded through the local API on the real adb
// server and the demo phone: the kept flow writes it as a literal (`$${`), so the exported file passes the flow check
// and its replay on a reset phone taps that note and types those words (GET /state), never a variable's value.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { centreOnPhone } from '../support/node-centre';
import { runAmc } from '../support/cli';
import { isolatedEnv, removeHome, startTestApp, type TestApp } from './app-fixture';

let harness: AdbHarness;
let app: TestApp;
let files: string;

beforeAll(async () => {
  harness = await startAdbHarness();
  app = await startTestApp({ env: isolatedEnv(harness.env) });
  files = await mkdtemp(path.join(tmpdir(), 'amc-literal-'));
}, 60_000);

afterAll(async () => {
  await app?.close();
  await harness?.stop();
  if (app) await removeHome(app.home);
  if (files) await rm(files, { recursive: true, force: true });
});

// A note whose title is a template, beside one whose title is what that template would read with PRICE=4.
const NOTES = [
  { title: 'Price 4', body: 'already filled in' },
  { title: 'Price ${PRICE}', body: 'a template' },
];
const SEED = { foreground: 'com.amc.notes', notes: NOTES };

describe('recording a template', () => {
  it('Scenario: A screen text holding a dollar-brace is recorded as a literal, passes the flow check and replays on that element', { timeout: 180_000 }, async () => {
    const serial = harness.serial;
    await harness.control('/reset', { body: SEED });
    // Inspect's copied step names the template's note in the same words, and checks as a flow.
    const inspected = await app.call('inspect.screen', { serial });
    const copied = inspected.locators.find((line) => line.ours.includes('Price $${PRICE}'));
    expect(copied?.ours, JSON.stringify(inspected.locators.map((line) => line.ours))).toMatch(/^- tap: /);
    expect(await app.call('flows.check', { text: `goal: Open the template\nsteps:\n${copied!.ours}\n`, vars: {} })).toMatchObject({ ok: true });
    await app.call('record.start', { serial });
    await app.call('devices.tap', { serial, ...(await centreOnPhone(harness, 'Price ${PRICE}')) });
    await app.call('devices.tap', { serial, ...(await centreOnPhone(harness, '#note_body')) });
    await app.call('devices.typeText', { serial, text: ' $ echo ${HOME}' });
    // The keyboard covers Save: Back puts it away first.
    await app.call('devices.pressKey', { serial, key: 'back' });
    await app.call('devices.tap', { serial, ...(await centreOnPhone(harness, 'Save')) });
    const recorded = (await harness.control<{ notes: typeof NOTES }>('/state')).body.notes;
    // The person's run changed the template's note and only it.
    expect(recorded[0]).toEqual(NOTES[0]);
    expect(recorded[1]!.title).toBe('Price ${PRICE}');
    expect(recorded[1]!.body).toContain('$ echo ${HOME}');

    const { recording } = await app.call('record.status', { serial });
    expect(recording!.steps[0]!.label).toContain('Price $${PRICE}');
    const { taskId } = await app.call('record.stop', { serial, goal: 'Sign the ${PRICE} note' });
    const exported = await app.call('flows.fromTask', { id: taskId });
    expect(exported.text).toContain('Price $${PRICE}');
    // A variable's value is taken as it is; in the goal and the steps every `${` the screen showed is written `$${`.
    expect(exported.text).toMatch(/^vars:\n {2}text: " \$ echo \$\{HOME\}"$/m);
    expect(exported.text.replace(/^vars:\n.*$/m, '')).not.toMatch(/(?<!\$)\$\{(PRICE|HOME)\}/);
    expect(await app.call('flows.check', { text: exported.text, vars: {} }), exported.text).toMatchObject({ ok: true });

    // Replayed on a reset phone with no model: the same note gets the same words.
    await harness.control('/reset', { body: SEED });
    const file = path.join(files, 'template.yaml');
    await writeFile(file, exported.text);
    const env = { ANDROID_ADB_SERVER_PORT: String(harness.adbPort), HOME: harness.env.HOME, AMC_HOME: app.home };
    const ran = await runAmc(['flow', 'run', file, '-s', serial, '--yes'], { env, timeoutMs: 90_000 });
    expect(ran.code, `${exported.text}\n${ran.stdout}\n${ran.stderr}`).toBe(0);
    expect((await harness.control<{ notes: typeof NOTES }>('/state')).body.notes).toEqual(recorded);
  });
});
