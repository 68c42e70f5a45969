// Fires the local schedules while the app runs (the window or `amc serve`): each at its planned time starts a launch
// of its goal on its phone or group. Runs planned while the app was closed are not run late (a goal at an unexpected
// hour could surprise whoever holds the phone) and never skipped silently: they are kept as missed runs, shown until a
// person dismisses them. The clock is injected, so tests move time by hand.
import type { LaunchStarted } from '../shared/contract/tasks';
import type { LocalSchedule, ScheduleFile, ScheduleRequest, SchedulesOverview } from '../shared/schedule';
import type { ScheduleStore } from '../core/storage/schedule-store';
import { checkCron, nextRunAfter, runsBetween } from './schedule-times';

export interface SchedulerClock {
  now(): number;
  setTimeout(fire: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

export const systemClock: SchedulerClock = {
  now: () => Date.now(),
  setTimeout: (fire, ms) => setTimeout(fire, ms).unref(),
  clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout),
};

/** A timer never waits longer than this before looking again (timers cannot wait weeks; the clock may jump). */
const LONGEST_WAIT_MS = 60 * 60_000;

export interface LocalSchedulerOptions {
  store: ScheduleStore;
  clock?: SchedulerClock;
  /** Starts the schedule's goal on its phones (the app's launch). */
  launch(schedule: LocalSchedule): Promise<LaunchStarted>;
  /** Told after every change (added, removed, fired, missed runs noticed). */
  changed?(overview: SchedulesOverview): void;
}

export class LocalScheduler {
  private readonly clock: SchedulerClock;
  private timer: unknown = null;
  private stopped = false;
  /** The firing under way, so a reload or stop waits for it instead of racing its write. */
  private firing: Promise<void> = Promise.resolve();

  constructor(private readonly options: LocalSchedulerOptions) {
    this.clock = options.clock ?? systemClock;
  }

  /** Until start() has noted the missed runs, every request waits (a window asking at once sees them). */
  private ready: Promise<unknown> = Promise.resolve();

  /** Notes the runs missed while the app was closed, then waits for the next planned run. */
  start(): Promise<void> {
    const started = (async () => {
      const now = this.clock.now();
      // Written only when runs were missed: a data folder without schedules stays without a schedules file.
      if (runsWereMissed(await this.options.store.load(), now)) await this.options.store.update((file) => accountMissed(file, now));
      await this.rearm();
    })();
    this.ready = started.catch(() => undefined);
    return started;
  }

  stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    return this.firing;
  }

  async overview(): Promise<SchedulesOverview> {
    await this.ready;
    return overviewOf(await this.options.store.load(), this.clock.now());
  }

  async add(request: ScheduleRequest): Promise<SchedulesOverview> {
    await this.ready;
    await addSchedule(this.options.store, request, this.clock.now());
    return this.rearm();
  }

  /** False when there is no schedule of that name. */
  async remove(name: string): Promise<{ removed: boolean; overview: SchedulesOverview }> {
    await this.ready;
    const removed = await removeSchedule(this.options.store, name);
    return { removed, overview: await this.rearm() };
  }

  async dismissMissed(): Promise<SchedulesOverview> {
    await this.ready;
    await this.options.store.update((file) => ({ ...file, missed: [] }));
    return this.rearm();
  }

  /** Rearms in turn: two overlapping rearms (a file change while a request rearms) would each leave a timer behind. */
  private rearming: Promise<unknown> = Promise.resolve();

  /** Reads the file again (another process, `amc schedule`, changed it) and waits for the next planned run. */
  rearm(): Promise<SchedulesOverview> {
    const rearmed = this.rearming.then(() => this.rearmNow());
    this.rearming = rearmed.catch(() => undefined);
    return rearmed;
  }

  private async rearmNow(): Promise<SchedulesOverview> {
    await this.firing;
    const overview = overviewOf(await this.options.store.load(), this.clock.now());
    // The time is read after the file: a moment that passed while it loaded is still due (waited 0 ms), not skipped.
    const now = this.clock.now();
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    this.options.changed?.(overview);
    if (this.stopped) return overview;
    const next = Math.min(...overview.schedules.map((schedule) => schedule.nextRunAt ?? Infinity));
    if (Number.isFinite(next)) {
      this.timer = this.clock.setTimeout(() => {
        this.timer = null;
        // After any firing under way: a timer armed from the file as it was before that firing wrote its run finds
        // nothing due then, instead of starting the same run a second time.
        this.firing = this.firing
          .then(() => this.fireDue())
          .catch((error: unknown) => console.error(`A schedule could not fire: ${error instanceof Error ? error.message : String(error)}`));
        void this.firing.then(() => this.rearm());
      }, Math.min(Math.max(0, next - now), LONGEST_WAIT_MS));
    }
    return overview;
  }

  /**
   * Starts every schedule whose next run is due; older planned runs passed by meanwhile (the computer slept) are
   * missed. Several app processes (a window and `amc serve`) may run on one data folder: a due run is claimed under
   * the schedules file's lock (its planned time written as accounted for) before it is started, so the process that
   * claims it alone starts it, and the others find it no longer due.
   */
  private async fireDue(): Promise<void> {
    const now = this.clock.now();
    if (!(await this.options.store.load()).schedules.some((schedule) => isDue(schedule, now))) return;
    const claimed = new Map<string, { schedule: LocalSchedule; plannedAt: number }>();
    await this.options.store.update((current) => {
      const missed = [...current.missed];
      const schedules = current.schedules.map((schedule) => {
        if (!isDue(schedule, now)) return schedule;
        const passed = runsBetween(schedule.cron, schedule.lastPlannedAt ?? schedule.createdAt, now);
        if (passed.count > 1 && passed.first !== null) {
          missed.push({ name: schedule.name, goal: schedule.goal, count: passed.count - 1, first: passed.first, last: previousOf(schedule, passed.last!), noticedAt: now });
        }
        claimed.set(schedule.name, { schedule, plannedAt: passed.last ?? now });
        return { ...schedule, lastPlannedAt: now };
      });
      return { ...current, schedules, missed };
    });
    if (claimed.size === 0) return;
    const runs = new Map<string, { plannedAt: number; result: LaunchStarted | Error }>();
    await Promise.all(
      [...claimed.values()].map(async ({ schedule, plannedAt }) => {
        const result = await this.options.launch(schedule).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
        runs.set(schedule.name, { plannedAt, result });
      }),
    );
    await this.options.store.update((current) => ({
      ...current,
      schedules: current.schedules.map((schedule) => {
        const run = runs.get(schedule.name);
        if (!run) return schedule;
        const { result } = run;
        const lastRun =
          result instanceof Error
            ? { plannedAt: run.plannedAt, firedAt: now, launchId: null, problems: [result.message] }
            : {
                plannedAt: run.plannedAt,
                firedAt: now,
                launchId: result.launchId,
                problems: result.rows.filter((row) => row.taskId === null).map((row) => `${row.serial}: ${row.reason ?? 'did not start'}`),
              };
        return { ...schedule, lastRun };
      }),
    }));
  }
}

/** Whether a schedule's next planned run is at or before `now` (not yet accounted for). */
function isDue(schedule: LocalSchedule, now: number): boolean {
  const next = nextRunAfter(schedule.cron, schedule.lastPlannedAt ?? schedule.createdAt);
  return next !== null && next <= now;
}

/** Adds a schedule (replacing one of the same name) whose first run is the first planned time after `now`; a pattern croner refuses throws ScheduleTimeError. */
export async function addSchedule(store: ScheduleStore, request: ScheduleRequest, now: number): Promise<void> {
  checkCron(request.cron);
  await store.update((file) => ({
    ...file,
    schedules: [...file.schedules.filter((schedule) => schedule.name !== request.name), { ...request, createdAt: now, lastPlannedAt: now, lastRun: null }],
  }));
}

/** Removes a schedule; false when there was none of that name. */
export async function removeSchedule(store: ScheduleStore, name: string): Promise<boolean> {
  let removed = false;
  await store.update((file) => {
    removed = file.schedules.some((schedule) => schedule.name === name);
    return { ...file, schedules: file.schedules.filter((schedule) => schedule.name !== name) };
  });
  return removed;
}

/** The planned run before `plannedAt` (the last of the missed ones when several passed at once). */
function previousOf(schedule: LocalSchedule, plannedAt: number): number {
  const passed = runsBetween(schedule.cron, schedule.lastPlannedAt ?? schedule.createdAt, plannedAt - 1);
  return passed.last ?? plannedAt;
}

function runsWereMissed(file: ScheduleFile, now: number): boolean {
  return file.schedules.some((schedule) => runsBetween(schedule.cron, schedule.lastPlannedAt ?? schedule.createdAt, now).count > 0);
}

/** Runs planned between each schedule's last accounted run and `now`, when the app was not there to fire them. */
export function accountMissed(file: ScheduleFile, now: number): ScheduleFile {
  const missed = [...file.missed];
  const schedules = file.schedules.map((schedule) => {
    const passed = runsBetween(schedule.cron, schedule.lastPlannedAt ?? schedule.createdAt, now);
    if (passed.count === 0) return schedule;
    missed.push({ name: schedule.name, goal: schedule.goal, count: passed.count, first: passed.first!, last: passed.last!, noticedAt: now });
    return { ...schedule, lastPlannedAt: now };
  });
  return { schedules, missed };
}

export function overviewOf(file: ScheduleFile, now: number): SchedulesOverview {
  return {
    schedules: file.schedules.map((schedule) => ({ ...schedule, nextRunAt: safeNext(schedule, now) })),
    missed: file.missed,
  };
}

/** The next run of a schedule; a pattern edited by hand into something croner refuses has none (and is listed so). */
function safeNext(schedule: LocalSchedule, now: number): number | null {
  try {
    return nextRunAfter(schedule.cron, Math.max(schedule.lastPlannedAt ?? schedule.createdAt, now - 1));
  } catch {
    return null;
  }
}
