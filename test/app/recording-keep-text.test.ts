// "Add check" → "Keep its text" through the local API on the real adb server and the demo phone: a click keeps the
// element's words in a variable (a copy_text step named by what does not change with them), a later step edited to
// use it, and the exported flow, replayed on a phone where those words differ, types the words that phone shows.
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
  files = await mkdtemp(path.join(tmpdir(), 'amc-keep-text-'));
}, 60_000);

afterAll(async () => {
  await app?.close();
  await harness?.stop();
  if (app) await removeHome(app.home);
  if (files) await rm(files, { recursive: true, force: true });
});

const seed = (order: string) => ({ foreground: 'com.amc.notes' as const, notes: [{ title: 'Order', body: order }, { title: 'Ideas', body: 'plans' }] });

describe('keeping a text while recording', () => {
  it('Scenario: Keep its text keeps an element words in a variable that later steps use, and a replay reads them anew', { timeout: 180_000 }, async () => {
    const serial = harness.serial;
    await harness.control('/reset', { body: seed('4711') });
    await app.call('record.start', { serial });
    await app.call('devices.tap', { serial, ...(await centreOnPhone(harness, 'Order')) });
    const body = await centreOnPhone(harness, '#note_body');
    const kept = await app.call('record.addCheck', { serial, kind: 'text', ...body });
    // Named by its id, not by the words it holds now (those are what a later run may show otherwise).
    expect(kept.recording!.steps.at(-1)!.step).toEqual({ copy_text: { from: expect.objectContaining({ resourceId: 'note_body' }), into: 'note_body' } });
    expect(JSON.stringify(kept.recording!.steps.at(-1)!.step)).not.toContain('4711');
    // The click only named the element: nothing was typed or focused on the phone.
    expect((await harness.control<{ focusedField: string | null }>('/state')).body.focusedField).toBeNull();
    await app.call('devices.pressKey', { serial, key: 'back' });
    await app.call('devices.tap', { serial, ...(await centreOnPhone(harness, 'Ideas')) });
    await app.call('devices.tap', { serial, ...(await centreOnPhone(harness, '#note_title')) });
    await app.call('devices.typeText', { serial, text: ' 4711' });
    await app.call('devices.pressKey', { serial, key: 'back' });
    await app.call('devices.tap', { serial, ...(await centreOnPhone(harness, 'Save')) });
    const { recording } = await app.call('record.status', { serial });
    const typing = recording!.steps.find((step) => 'tool' in step.step && step.step.tool === 'type_text')!;
    // A name no step keeps is still refused; the kept one reads.
    await expect(app.call('record.editStep', { serial, stepId: typing.id, text: 'type_text: " ${order_number}"' })).rejects.toThrow(/order_number/);
    await app.call('record.editStep', { serial, stepId: typing.id, text: 'type_text: " ${note_body}"' });
    const { taskId } = await app.call('record.stop', { serial, goal: 'Put the order number on Ideas' });
    const exported = await app.call('flows.fromTask', { id: taskId });
    expect(exported.text).toMatch(/copy_text:\s+from: \{[^}]*resourceId: note_body[^}]*\}\s+into: note_body\n/);
    expect(exported.text).toContain('type_text: " ${note_body}"');
    expect(await app.call('flows.check', { text: exported.text, vars: {} }), exported.text).toMatchObject({ ok: true });

    // On a phone whose order says 9000, the replay types 9000, not the 4711 seen while recording.
    await harness.control('/reset', { body: seed('9000') });
    const file = path.join(files, 'keep-text.yaml');
    await writeFile(file, exported.text);
    const env = { ANDROID_ADB_SERVER_PORT: String(harness.adbPort), HOME: harness.env.HOME, AMC_HOME: app.home };
    const ran = await runAmc(['flow', 'run', file, '-s', serial, '--yes'], { env, timeoutMs: 90_000 });
    expect(ran.code, `${exported.text}\n${ran.stdout}\n${ran.stderr}`).toBe(0);
    expect((await harness.control<{ notes: { title: string; body: string }[] }>('/state')).body.notes).toEqual([
      { title: 'Order', body: '9000' },
      { title: 'Ideas 9000', body: 'plans' },
    ]);
  });
});
