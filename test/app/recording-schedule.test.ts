// A schedule over a recorded task's flow (issue 44): a recording made through the local API on the real adb server and
// the demo phone, exported as `amc flow export` writes it and scheduled with `amc schedule add --flow`, runs on its
// phone when the hand-moved clock reaches its time, with no model configured; GET /state shows what it did.
import { mkdtemp, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { centreOnPhone } from '../support/node-centre';
import { runAmc } from '../support/cli';
import { HandClock } from '../support/hand-clock';
import { isolatedEnv, removeHome, startTestApp, type TestApp } from './app-fixture';

let harness: AdbHarness;
let app: TestApp;
let home: string;
const clock = new HandClock(new Date(2026, 11, 4, 7, 0).getTime());

beforeAll(async () => {
  harness = await startAdbHarness();
  home = await mkdtemp(path.join(os.tmpdir(), 'amc-recorded-schedule-'));
  app = await startTestApp({ env: isolatedEnv(harness.env), home, scheduleClock: clock });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await harness?.stop();
  if (home) await removeHome(home);
});

describe('a schedule over a recorded task', { timeout: 180_000 }, () => {
  it("Scenario: A schedule of a recorded task's flow runs it on its phone when due, with no model", async () => {
    const serial = harness.serial;
    await harness.control('/reset', { body: { settings: { wifi: false } } });
    await app.call('record.start', { serial });
    for (const text of ['Settings', 'Network & internet', 'Wi-Fi']) await app.call('devices.tap', { serial, ...(await centreOnPhone(harness, text)) });
    const { taskId } = await app.call('record.stop', { serial, goal: 'Turn on Wi-Fi' });
    expect((await harness.state()).settings.wifi).toBe(true);

    const env = { ANDROID_ADB_SERVER_PORT: String(harness.adbPort), HOME: harness.env.HOME, AMC_HOME: home };
    const exported = await runAmc(['flow', 'export', taskId], { env });
    expect(exported.code, exported.stderr).toBe(0);
    const file = path.join(home, 'wifi-on.yaml');
    await writeFile(file, exported.stdout);
    const added = await runAmc(['schedule', 'add', '--name', 'wifi', '--cron', '30 7 * * *', '--flow', file, '--device', serial], { env });
    expect(added.code, added.stderr).toBe(0);
    await app.waitForEvent('schedules.changed', (overview) => overview.schedules.some((schedule) => schedule.name === 'wifi'));
    // The schedule keeps the flow: the file going away changes nothing.
    await unlink(file);

    await harness.control('/reset', { body: { settings: { wifi: false } } });
    const planned = (await app.call('schedules.list', {})).schedules.find((schedule) => schedule.name === 'wifi')!.nextRunAt!;
    clock.moveTo(planned);
    const fired = await app.waitForEvent('schedules.changed', (overview) => Boolean(overview.schedules.find((schedule) => schedule.name === 'wifi')?.lastRun));
    const run = fired.schedules.find((schedule) => schedule.name === 'wifi')!.lastRun!;
    expect(run.problems).toEqual([]);
    const started = await app.waitForEvent('task.event', (event) => event.type === 'task.started' && event.launchId === run.launchId);
    const finished = await app.waitForTaskEvent(started.taskId, 'task.finished', 60_000);
    expect(finished).toMatchObject({ status: 'completed' });
    expect((await harness.state()).settings.wifi).toBe(true);
  });
});
