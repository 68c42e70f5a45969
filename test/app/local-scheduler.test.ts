// The scheduler on its own, with a real schedule file and a clock moved by hand: overlapping rearms (a request and a
// change of the file at once) must leave one timer, so a planned moment fires its goal exactly once.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LaunchStarted } from '../../src/shared/contract/tasks';
import type { LocalSchedule } from '../../src/shared/schedule';
import { LocalScheduler } from '../../src/app/local-scheduler';
import { createScheduleStore } from '../../src/core/storage/schedule-store';
import { HandClock } from '../support/hand-clock';

const local = (hour: number, minute: number) => new Date(2026, 11, 4, hour, minute).getTime();
let home = '';

afterEach(async () => {
  if (home) await rm(home, { recursive: true, force: true });
});

describe('local scheduler', () => {
  it('overlapping rearms leave one timer, and the planned moment fires its goal once', async () => {
    home = await mkdtemp(path.join(os.tmpdir(), 'amc-scheduler-'));
    const clock = new HandClock(local(7, 58));
    const launched: LocalSchedule[] = [];
    const scheduler = new LocalScheduler({
      store: createScheduleStore(home),
      clock,
      launch: async (schedule): Promise<LaunchStarted> => {
        launched.push(schedule);
        return { launchId: `launch-${launched.length}`, goal: schedule.goal, rows: [] };
      },
    });
    await scheduler.start();
    await scheduler.add({ name: 'morning', cron: '0 8 * * *', goal: 'Turn on Wi-Fi', phones: { kind: 'serials', serials: ['phone-1'] } });

    // Three rearms at once, as a file watcher and two requests might start them; the moment passes while they load.
    const rearms = [scheduler.rearm(), scheduler.rearm(), scheduler.rearm()];
    clock.moveTo(local(8, 0));
    await Promise.all(rearms);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await scheduler.rearm();

    expect(launched.map((schedule) => schedule.name)).toEqual(['morning']);
    expect(clock.pending()).toBe(1);
    const overview = await scheduler.overview();
    expect(overview.schedules[0]).toMatchObject({ lastRun: { plannedAt: local(8, 0), launchId: 'launch-1' }, nextRunAt: new Date(2026, 11, 5, 8, 0).getTime() });
    await scheduler.stop();
  });

  it('a moment that passes while a rearm reads the file fires its goal once, not again from the stale read', async () => {
    home = await mkdtemp(path.join(os.tmpdir(), 'amc-scheduler-'));
    const clock = new HandClock(local(7, 58));
    const store = createScheduleStore(home);
    let duringLoad: (() => void) | null = null;
    const launched: string[] = [];
    const scheduler = new LocalScheduler({
      // The real file, with a hook run while a read is under way (as the clock may reach 08:00 during any read).
      store: {
        ...store,
        load: async () => {
          const file = await store.load();
          const hook = duringLoad;
          duringLoad = null;
          hook?.();
          return file;
        },
      },
      clock,
      launch: async (schedule): Promise<LaunchStarted> => {
        launched.push(schedule.name);
        // A launch takes a while (it checks the phone): long enough for a second timer to fire if one was armed.
        await new Promise((resolve) => setTimeout(resolve, 30));
        return { launchId: `launch-${launched.length}`, goal: schedule.goal, rows: [] };
      },
    });
    await scheduler.start();
    await scheduler.add({ name: 'morning', cron: '0 8 * * *', goal: 'Turn on Wi-Fi', phones: { kind: 'serials', serials: ['phone-1'] } });

    // A change of the file is noticed: its rearm reads the file, and 08:00 comes while it does.
    duringLoad = () => clock.moveTo(local(8, 0));
    await scheduler.rearm();
    await new Promise((resolve) => setTimeout(resolve, 200));
    await scheduler.rearm();

    expect(launched).toEqual(['morning']);
    expect((await scheduler.overview()).schedules[0]).toMatchObject({ lastRun: { plannedAt: local(8, 0), launchId: 'launch-1', problems: [] } });
    await scheduler.stop();
  });

  it('Scenario: A schedule due in two running app processes fires once', async () => {
    home = await mkdtemp(path.join(os.tmpdir(), 'amc-scheduler-'));
    const launched: string[] = [];
    // Two app processes on one data folder (a window and `amc serve`): each its own store, clock and timer.
    const processes = ['window', 'serve'].map((name) => {
      const clock = new HandClock(local(7, 58));
      const scheduler = new LocalScheduler({
        store: createScheduleStore(home),
        clock,
        launch: async (schedule): Promise<LaunchStarted> => {
          launched.push(`${schedule.name} by ${name}`);
          await new Promise((resolve) => setTimeout(resolve, 30));
          return { launchId: `launch-${name}`, goal: schedule.goal, rows: [] };
        },
      });
      return { clock, scheduler };
    });
    for (const { scheduler } of processes) await scheduler.start();
    await processes[0]!.scheduler.add({ name: 'morning', cron: '0 8 * * *', goal: 'Turn on Wi-Fi', phones: { kind: 'serials', serials: ['phone-1'] } });
    // The other process notices the changed file, as its watcher would.
    await processes[1]!.scheduler.rearm();

    for (const { clock } of processes) clock.moveTo(local(8, 0));
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const { scheduler } of processes) await scheduler.rearm();

    expect(launched).toHaveLength(1);
    expect(launched[0]).toMatch(/^morning by /);
    const [overview] = await Promise.all(processes.map(({ scheduler }) => scheduler.overview()));
    expect(overview!.schedules[0]).toMatchObject({ lastRun: { plannedAt: local(8, 0), problems: [] } });
    for (const { scheduler } of processes) await scheduler.stop();
  });
});
