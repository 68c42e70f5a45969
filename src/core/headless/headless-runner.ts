import type { AdbClient } from '../device/adb-client';
import { Observer, type ReadingSource } from '../perception/observer';
import { TaskRunner, type DeviceLockPort, type SupervisorPort } from '../runtime/task-runner';
import { Executor, type ExecutorOptions } from '../tools/executor';
import type { AppNotesPort } from '../runtime/notes/app-notes-port';
import type { PlanCachePort } from '../runtime/plan-cache-port';

/**
 * A TaskRunner straight on one adb client, without the app around it: what `amc run` and `amc eval` drive phones with.
 * The runner tells each look whether to take a screenshot (only for a planner that takes one).
 */
export function createHeadlessRunner(
  adb: AdbClient,
  options: {
    deviceLock?: DeviceLockPort;
    supervisor?: SupervisorPort;
    typing?: ExecutorOptions['typing'];
    appNotes?: AppNotesPort;
    planCache?: PlanCachePort;
    readings?: ReadingSource;
  },
): TaskRunner {
  return new TaskRunner({
    observer: new Observer(adb, {
      screenshot: false,
      ...(options.readings && { readings: options.readings }),
      // The helpers that push yadb for typing also push it for a screen that never goes idle.
      ...(options.typing && { helpers: options.typing.helpers }),
    }),
    executor: new Executor(adb, { ...(options.typing && { typing: options.typing }) }),
    ...(options.deviceLock && { deviceLock: options.deviceLock }),
    ...(options.supervisor && { supervisor: options.supervisor }),
    ...(options.appNotes && { appNotes: options.appNotes }),
    ...(options.planCache && { planCache: options.planCache }),
  });
}
