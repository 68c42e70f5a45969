// Schedules without Redis in the running app (createApp on a real adb server and demo phone, the AI planner talking
// to a scripted model through the real Anthropic SDK), on a clock the test moves by hand: no test waits for real time
// to pass. What the phone shows afterwards (GET /state) proves the scheduled goal ran.
import { unlink, writeFile } from 'node:fs/promises';
import { taskVerdict } from '../../src/shared/verdict';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startAnthropicFake, type AnthropicFake, wifiOnModel } from '../fakes/index';
import { startAdbHarness, type AdbHarness } from '../support/adb-harness';
import { anthropicDirectEnv, runAmc } from '../support/cli';
import { isolatedEnv, removeHome, startTestApp, until, type TestApp } from './app-fixture';
import type { SchedulesOverview } from '../../src/shared/schedule';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import { HandClock } from '../support/hand-clock';


/** Waits for a schedules.changed event published after the first `seen` events that matches. */
async function schedulesChangedAfter(app: TestApp, seen: number, match: (overview: SchedulesOverview) => boolean): Promise<void> {
  await until(() => app.events.slice(seen).some((event) => event.name === 'schedules.changed' && match(event.payload as SchedulesOverview)), 20_000, 'the schedules to change');
}

/** Local times, as cron reads them: 4 December 2026 at hh:mm, `days` later. */
const local = (hour: number, minute: number, days = 0) => new Date(2026, 11, 4 + days, hour, minute).getTime();

let harness: AdbHarness;
let fake: AnthropicFake;
let home: string;
let app: TestApp | null = null;

const appEnv = () => isolatedEnv(harness.env, anthropicDirectEnv(harness, home, fake.url));

beforeAll(async () => {
  harness = await startAdbHarness();
  fake = await startAnthropicFake({ policy: wifiOnModel });
}, 60_000);

afterAll(async () => {
  await fake?.close();
  await harness?.stop();
});

beforeEach(async () => {
  await app?.close();
  app = null;
  if (home) await removeHome(home);
  home = await mkdtemp(path.join(os.tmpdir(), 'amc-schedules-'));
  await harness.reset({ settings: { wifi: false } });
});

afterAll(async () => {
  await app?.close();
  if (home) await removeHome(home);
});

describe('schedules in the running app', { timeout: 120_000 }, () => {
  it('Scenario: A schedule fires at its planned time on the clock and runs its goal on its phone', async () => {
    const asked = fake.requests.length;
    const clock = new HandClock(local(7, 58));
    app = await startTestApp({ env: appEnv(), home, scheduleClock: clock });
    const added = await app.call('schedules.add', { name: 'morning', cron: '0 8 * * *', goal: 'Turn on Wi-Fi', phones: { kind: 'serials', serials: [harness.serial] } });
    expect(added.schedules).toMatchObject([{ name: 'morning', nextRunAt: local(8, 0), lastRun: null }]);

    // A minute before: nothing runs.
    clock.moveTo(local(7, 59));
    expect(fake.requests.length).toBe(asked);
    expect((await app.call('schedules.list', {})).schedules[0]!.lastRun).toBeNull();

    clock.moveTo(local(8, 0));
    const fired = await app.waitForEvent('schedules.changed', (overview) => Boolean(overview.schedules[0]?.lastRun));
    const run = fired.schedules[0]!.lastRun!;
    expect(run).toMatchObject({ plannedAt: local(8, 0), firedAt: local(8, 0), problems: [] });
    expect(fired.schedules[0]!.nextRunAt).toBe(local(8, 0, 1));
    const started = await app.waitForEvent('task.event', (event) => event.type === 'task.started' && event.launchId === run.launchId);
    await app.waitForTaskEvent(started.taskId, 'task.finished', 60_000);
    expect((await harness.state()).settings.wifi).toBe(true);
    const ran = (await app.call('history.list', {})).tasks.filter((task) => task.launchId === run.launchId);
    expect(ran).toHaveLength(1);
    expect((await app.call('schedules.list', {})).missed).toEqual([]);
    // `amc schedule list` says how the last run ended: the verdict of its task, as History shows it.
    const verdict = taskVerdict(ran[0]!);
    expect(verdict).not.toBeNull();
    const listed = await runAmc(['schedule', 'list'], { env: { ...appEnv(), AMC_HOME: home } });
    expect(listed.stdout).toMatch(new RegExp(`^  last run .+: 1 ${verdict === 'done-not-verified' ? 'not verified' : verdict}$`, 'm'));
  });

  it('Scenario: A schedule names the demo phone by its name and runs on it after a restart', async () => {
    const clock = new HandClock(local(7, 58));
    app = await startTestApp({ env: appEnv(), home, scheduleClock: clock });
    const first = await app.call('devices.startDemo', {});
    // Kept by its name, not by the serial whose port changes at every start.
    const added = await app.call('schedules.add', { name: '早上', cron: '0 8 * * *', goal: 'Turn on Wi-Fi', phones: { kind: 'demo', number: 1 } });
    expect(added.schedules).toMatchObject([{ name: '早上', phones: { kind: 'demo', number: 1 } }]);
    expect((await runAmc(['schedule', 'list'], { env: { ...appEnv(), AMC_HOME: home } })).stdout).toContain('早上: 0 8 * * * — Turn on Wi-Fi on Demo phone;');
    await app.close();

    // The app starts again: its demo phone gets another port, and the schedule still finds it.
    app = await startTestApp({ env: appEnv(), home, scheduleClock: clock });
    clock.moveTo(local(8, 0));
    const fired = await app.waitForEvent('schedules.changed', (overview) => Boolean(overview.schedules[0]?.lastRun));
    const run = fired.schedules[0]!.lastRun!;
    expect(run.problems).toEqual([]);
    const started = await app.waitForEvent('task.event', (event) => event.type === 'task.started' && event.launchId === run.launchId);
    expect(started.type === 'task.started' && started.serial).not.toBe(first.serial);
    await app.waitForTaskEvent(started.taskId, 'task.finished', 60_000);
    // The goal was carried out on the new demo phone: actions ran there and the task ended done.
    const record = await app.call('history.get', { id: started.taskId });
    expect(record).toMatchObject({ serial: started.type === 'task.started' ? started.serial : '', status: 'completed' });
    expect(record.steps.filter((step) => step.outcome?.ok && step.planned?.tool !== 'finish_task').length).toBeGreaterThan(0);
  });

  it('Scenario: Runs missed while the app was closed are reported when it starts, never run late or skipped silently', async () => {
    const schedule = { name: 'morning', cron: '0 8 * * *', goal: 'Turn on Wi-Fi', phones: { kind: 'serials', serials: [harness.serial] }, createdAt: local(7, 0, -2), lastPlannedAt: local(7, 0, -2), lastRun: null };
    await writeFile(path.join(home, 'schedules.json'), JSON.stringify({ schedules: [schedule], missed: [] }));
    const asked = fake.requests.length;
    // The app opens at 09:00 two days later: three mornings passed while it was closed.
    const clock = new HandClock(local(9, 0));
    app = await startTestApp({ env: appEnv(), home, scheduleClock: clock });
    const overview = await app.call('schedules.list', {});
    expect(overview.missed).toEqual([{ name: 'morning', goal: 'Turn on Wi-Fi', count: 3, first: local(8, 0, -2), last: local(8, 0), noticedAt: local(9, 0) }]);
    expect(overview.schedules[0]!.nextRunAt).toBe(local(8, 0, 1));
    expect(fake.requests.length).toBe(asked);
    expect((await harness.state()).settings.wifi).toBe(false);

    // `amc schedule list` says the same; once dismissed in the app they are gone, and a restart does not report them again.
    const listed = await runAmc(['schedule', 'list'], { env: { AMC_HOME: home } });
    expect(listed.stdout).toMatch(/^Missed while the app was closed: morning — 3 runs from Dec 2, 2026, 8:00 AM to Dec 4, 2026, 8:00 AM$/m);
    expect((await app.call('schedules.dismissMissed', {})).missed).toEqual([]);
    await app.close();
    app = await startTestApp({ env: appEnv(), home, scheduleClock: new HandClock(local(9, 30)) });
    expect((await app.call('schedules.list', {})).missed).toEqual([]);
  });

  it('Scenario: amc schedule without --redis keeps the schedule in the app data folder, and the running app follows it', async () => {
    const clock = new HandClock(local(7, 0));
    app = await startTestApp({ env: appEnv(), home, scheduleClock: clock });
    const env = { AMC_HOME: home };
    const added = await runAmc(['schedule', 'add', '--name', 'wifi', '--cron', '30 7 * * 1-5', '--goal', 'Turn on Wi-Fi', '--device', harness.serial], { env });
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(new RegExp(`^Schedule "wifi": 30 7 \\* \\* 1-5 — Turn on Wi-Fi on ${harness.serial.replace(/\./g, '\\.')}; next `, 'm'));
    expect(added.stdout).toContain('It runs while the app is open (its window or amc serve)');
    // The running app notices the file changed and plans the run.
    await app.waitForEvent('schedules.changed', (overview) => overview.schedules.some((schedule) => schedule.name === 'wifi'));
    expect(clock.pending()).toBe(1);

    const badCron = await runAmc(['schedule', 'add', '--name', 'x', '--cron', '0 25 * * *', '--goal', 'g', '--device', harness.serial], { env });
    expect(badCron.code).toBe(2);
    expect(badCron.stderr).toMatch(/--cron: "0 25 \* \* \*" is not a cron pattern croner accepts/);
    const any = await runAmc(['schedule', 'add', '--name', 'x', '--cron', '0 8 * * *', '--goal', 'g', '--any'], { env });
    expect(any.stderr).toMatch(/--any is for fleet schedules \(give --redis URL\)/);
    const yes = await runAmc(['schedule', 'add', '--name', 'x', '--cron', '0 8 * * *', '--goal', 'g', '--group', 'lab', '--yes'], { env });
    expect(yes.stderr).toMatch(/--yes and --answer are for fleet schedules; on this machine the app asks you in its window/);

    expect((await runAmc(['schedule', 'list', '--json'], { env })).stdout).toMatch(/"name":"wifi"/);
    const seen = app.events.length;
    const removed = await runAmc(['schedule', 'remove', 'wifi'], { env });
    expect(removed.stdout).toBe('Removed the schedule "wifi".\n');
    await schedulesChangedAfter(app, seen, (overview) => overview.schedules.length === 0);
    expect(clock.pending()).toBe(0);
    expect((await runAmc(['schedule', 'remove', 'wifi'], { env })).code).toBe(1);
  });

  it("Scenario: A schedule of a flow on this machine keeps the flow's content and runs it on its phone when due", async () => {
    const clock = new HandClock(local(7, 0));
    app = await startTestApp({ env: appEnv(), home, scheduleClock: clock });
    const env = { AMC_HOME: home };
    const file = path.join(home, 'morning-note.yaml');
    await writeFile(file, 'goal: Write the note ${title}\nvars:\n  title: Groceries\nsteps:\n  - launch_app: Notes\n  - tap: {desc: New note}\n  - type_text: {target: {resourceId: note_title}, text: "${title}"}\n  - press_key: back\n  - tap: {text: Save}\n  - assert: {visible: "${title}"}\n');
    const added = await runAmc(['schedule', 'add', '--name', 'note', '--cron', '30 7 * * *', '--flow', file, '--var', 'title=Quinces', '--device', harness.serial], { env });
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(new RegExp(`^Schedule "note": 30 7 \\* \\* \\* — flow morning-note on ${harness.serial.replace(/\./g, '\\.')}; next `, 'm'));
    expect(added.stdout).toContain("editing or deleting the file later changes nothing scheduled");
    await app.waitForEvent('schedules.changed', (overview) => overview.schedules.some((schedule) => schedule.name === 'note'));
    // The file goes away before the run: the schedule runs the flow it kept.
    await unlink(file);
    expect((await runAmc(['schedule', 'list'], { env })).stdout).toMatch(/^note: 30 7 \* \* \* — flow morning-note on /m);
    const asked = fake.requests.length;
    // The CLI added it at the computer's real time: its first run is the next 07:30 after that.
    const planned = (await app.call('schedules.list', {})).schedules.find((schedule) => schedule.name === 'note')!.nextRunAt!;
    expect(new Date(planned).getHours() * 60 + new Date(planned).getMinutes()).toBe(7 * 60 + 30);
    clock.moveTo(planned);
    const fired = await app.waitForEvent('schedules.changed', (overview) => Boolean(overview.schedules.find((schedule) => schedule.name === 'note')?.lastRun));
    const run = fired.schedules.find((schedule) => schedule.name === 'note')!.lastRun!;
    expect(run.problems).toEqual([]);
    const started = await app.waitForEvent('task.event', (event) => event.type === 'task.started' && event.launchId === run.launchId);
    const finished = await app.waitForTaskEvent(started.taskId, 'task.finished', 60_000);
    expect(finished).toMatchObject({ status: 'completed' });
    expect((await harness.state()).notes.map((note) => note.title)).toContain('Quinces');
    // The flow replayed its steps: the model was never asked.
    expect(fake.requests.length).toBe(asked);
  });
});
