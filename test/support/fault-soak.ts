// Fault soak: task after task on the virtual phone, each with a fault injected while it runs (every fault kind of
// the control API, an adb server restart, a phone disconnect). Shared by the soak test and the hardening bench.
import { readdir } from 'node:fs/promises';
import { CONNECTION_DROP, FAULT_KINDS } from '@amc/demo-phone';
import { locksFolder } from '../../src/core/storage/device-lock';
import { createTaskStore } from '../../src/core/storage/task-store';
import type { TaskEvent } from '../../src/shared/task';
import type { DeviceList } from '../../src/shared/contract/devices';
import type { AdbHarness } from './adb-harness';
import type { TestApp } from '../app/app-fixture';
import { seededRandom } from './web-fuzz';

export const SOAK_FAULTS = [...FAULT_KINDS, 'adb-server-restart', 'phone-disconnect'] as const;
export type SoakFault = (typeof SOAK_FAULTS)[number];

/** How long one task may take before the soak stops it (a stop is still a terminal state with a reason). */
const TASK_DEADLINE_MS = 30_000;

export interface SoakResult {
  tasks: number;
  faults: Partial<Record<SoakFault, number>>;
  statuses: Record<string, number>;
  /** Each failure reason (ids and addresses blanked) with how often it ended a task. */
  reasons: Record<string, number>;
  /** Failed or cancelled tasks whose end gave no reason. */
  withoutReason: number;
  /** Tasks the soak had to stop at the deadline. */
  stoppedAtDeadline: number;
  /** History: tasks it holds afterwards, files it could not read, and started tasks it lost. */
  historyRecords: number;
  damagedFiles: number;
  lostRecords: number;
  /** After the soak: device locks left behind and adb streams still open on the phone. */
  leakedLocks: number;
  openAdbStreams: number;
  /** The task run after the soak, with no fault. */
  nextTaskStatus: string;
}

/**
 * `adb connect` after a kill-server, retried: the app restarts the adb server on its own, and when its start and
 * the adb CLI's own auto-start race, one of them finds the port taken and gives up.
 */
async function reconnectAfterRestart(harness: AdbHarness, attempts = 5): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await harness.connect();
      return;
    } catch (error) {
      if (attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

async function injectFault(harness: AdbHarness, fault: SoakFault): Promise<void> {
  if (fault === 'adb-server-restart') {
    await harness.adb(['kill-server']);
    await reconnectAfterRestart(harness);
  } else if (fault === 'phone-disconnect') {
    await harness.adb(['disconnect', harness.serial]);
  } else {
    const answer = await harness.control('/faults', { body: { kind: fault } });
    if (answer.status !== 200) throw new Error(`fault ${fault} was refused: ${answer.status}`);
  }
}

/**
 * Whether the fault takes the phone off the app's list: always (`true`), perhaps (`'maybe'`: a dropped connection the adb
 * server may win back before it says the phone was offline), or not.
 */
async function takesPhoneAway(harness: AdbHarness, fault: SoakFault): Promise<boolean | 'maybe'> {
  if (fault === 'phone-disconnect' || fault === 'adb-server-restart') return true;
  if (fault !== CONNECTION_DROP) return false;
  const armed = await harness.control<{ faults: Array<{ kind: string }> }>('/faults');
  return armed.body.faults.some((still) => still.kind === CONNECTION_DROP) ? false : 'maybe';
}

/**
 * Waits until the app has heard that the phone left (its list without it, or not ready) since event `since`. The adb
 * server tells the app through its own socket, which may lag behind the adb command that made the phone leave: until
 * then the app's list still shows the phone as it was, and a phone "listed again" would only be one not yet gone.
 */
async function untilAppSawPhoneLeave(app: TestApp, serial: string, since: number, surely: boolean): Promise<void> {
  const gone = () =>
    app.events.slice(since).some(({ name, payload }) => name === 'devices.changed' && !(payload as DeviceList).devices.some((device) => device.serial === serial && device.state === 'device'));
  const deadline = Date.now() + (surely ? 15_000 : 3_000);
  while (!gone()) {
    if (Date.now() > deadline) {
      if (surely) throw new Error(`the app never heard that ${serial} left after the fault`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Puts the phone back as it was (connected and ready in the app's eyes, screen on, no dialog) between tasks. */
async function restorePhone(app: TestApp, harness: AdbHarness, fault: { kind: SoakFault; since: number }): Promise<void> {
  const away = await takesPhoneAway(harness, fault.kind);
  if (away) await untilAppSawPhoneLeave(app, harness.serial, fault.since, away === true);
  await harness.control('/reset', { body: {} });
  const deadline = Date.now() + 30_000;
  let reconnectAt = Date.now() + 3_000;
  for (;;) {
    const list = await app.call('devices.list', {});
    if (list.devices.some((device) => device.serial === harness.serial && device.state === 'device')) return;
    if (Date.now() > deadline) throw new Error(`the phone did not come back after a fault: ${JSON.stringify(list)}`);
    // A dropped or disconnected phone is connected again, as a person would do.
    if (Date.now() > reconnectAt) {
      await harness.connect().catch(() => undefined);
      reconnectAt = Date.now() + 3_000;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function runOne(app: TestApp, harness: AdbHarness, goal: string, fault?: { kind: SoakFault; delayMs: number }) {
  const since = app.events.length;
  const started = await app.call('tasks.run', { serial: harness.serial, goal });
  if (fault) {
    await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
    await injectFault(harness, fault.kind);
  }
  let stoppedAtDeadline = false;
  const deadline = setTimeout(() => {
    stoppedAtDeadline = true;
    void app.call('tasks.stop', { taskId: started.id }).catch(() => undefined);
  }, TASK_DEADLINE_MS);
  try {
    const finished = await app.waitForTaskEvent(started.id, 'task.finished', TASK_DEADLINE_MS + 20_000);
    return { id: started.id, finished, stoppedAtDeadline, since };
  } finally {
    clearTimeout(deadline);
  }
}

/** Runs `count` tasks with a random fault each, then one without; counts what history and the phone kept. */
export async function runFaultSoak(app: TestApp, harness: AdbHarness, count: number, seed = 7): Promise<SoakResult> {
  const random = seededRandom(seed);
  const result: SoakResult = {
    tasks: count,
    faults: {},
    statuses: {},
    reasons: {},
    withoutReason: 0,
    stoppedAtDeadline: 0,
    historyRecords: 0,
    damagedFiles: 0,
    lostRecords: 0,
    leakedLocks: 0,
    openAdbStreams: 0,
    nextTaskStatus: '',
  };
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    // Every kind in turn, so even a short soak meets each one; the moment within the task is random.
    const kind = SOAK_FAULTS[i % SOAK_FAULTS.length]!;
    result.faults[kind] = (result.faults[kind] ?? 0) + 1;
    const { id, finished, stoppedAtDeadline, since } = await runOne(app, harness, `Soak task ${i + 1}: describe the screen`, {
      kind,
      delayMs: Math.floor(random() * 10),
    });
    ids.push(id);
    result.statuses[finished.status] = (result.statuses[finished.status] ?? 0) + 1;
    const reason = reasonOf(finished);
    if (!reason) result.withoutReason++;
    else if (finished.status !== 'completed') {
      const general = reason.replace(/\d+(\.\d+)*(:\d+)?/g, 'N');
      result.reasons[general] = (result.reasons[general] ?? 0) + 1;
    }
    if (stoppedAtDeadline) result.stoppedAtDeadline++;
    await restorePhone(app, harness, { kind, since });
  }
  const next = await runOne(app, harness, 'After the soak: describe the screen');
  result.nextTaskStatus = next.finished.status;

  const listing = await createTaskStore(app.app.home).list();
  const stored = new Set(listing.tasks.map((task) => task.id));
  result.historyRecords = ids.filter((id) => stored.has(id)).length;
  result.lostRecords = ids.length - result.historyRecords;
  result.damagedFiles = listing.damaged.length;
  result.leakedLocks = (await readdir(locksFolder(app.app.home)).catch(() => [])).length;
  // A stream the app closed a moment ago may still be finishing its CLSE handshake: give it a bounded while (long
  // enough for a machine loaded by the other test files: CI once saw one stream still closing after 5 s).
  const settleBy = Date.now() + 15_000;
  while (harness.device.adb.stats().streams > 0 && Date.now() < settleBy) await new Promise((resolve) => setTimeout(resolve, 50));
  result.openAdbStreams = harness.device.adb.stats().streams;
  return result;
}

/** A completed task needs no more reason than that; a failed or cancelled one must say why. */
function reasonOf(event: Extract<TaskEvent, { type: 'task.finished' }>): string | null {
  return event.status === 'completed' ? 'completed' : event.failureReason;
}
