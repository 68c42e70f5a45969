// The scheduler on its own, with a real schedule file and a clock moved by hand: overlapping rearms (a request and a
// change of the file at once) must leave one timer, so a planned moment fires its goal exactly once.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LaunchStarted } from '../../../src/shared/contract/tasks';
import type { LocalSchedule } from '../../../src/shared/schedule';
import { LocalScheduler, type SchedulerClock } from '../../../src/main/app/local-scheduler';
import { createScheduleStore } from '../../../src/main/storage/schedule-store';

/** Every timer is kept, so the test can count those left armed. */
class CountingClock implements SchedulerClock {
  readonly timers = new Set<{ at: number; fire: () => void }>();
  constructor(public at: number) {}
  now = () => this.at;
  setTimeout = (fire: () => void, ms: number) => {
    const timer = { at: this.at + ms, fire };
    this.timers.add(timer);
    if (ms <= 0) setImmediate(() => this.timers.delete(timer) && fire());
    return timer;
  };
  clearTimeout = (timer: unknown) => void this.timers.delete(timer as { at: number; fire: () => void });
  moveTo(at: number): void {
    this.at = at;
    for (const timer of [...this.timers].filter((each) => each.at <= at)) {
      this.timers.delete(timer);
      timer.fire();
    }
  }
}

const local = (hour: number, minute: number) => new Date(2026, 11, 4, hour, minute).getTime();
let home = '';

afterEach(async () => {
  if (home) await rm(home, { recursive: true, force: true });
});

describe('local scheduler', () => {
  it('overlapping rearms leave one timer, and the planned moment fires its goal once', async () => {
    home = await mkdtemp(path.join(os.tmpdir(), 'amc-scheduler-'));
    const clock = new CountingClock(local(7, 58));
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
    expect(clock.timers.size).toBe(1);
    const overview = await scheduler.overview();
    expect(overview.schedules[0]).toMatchObject({ lastRun: { plannedAt: local(8, 0), launchId: 'launch-1' }, nextRunAt: new Date(2026, 11, 5, 8, 0).getTime() });
    await scheduler.stop();
  });
});
