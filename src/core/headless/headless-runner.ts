import type { AdbClient } from '../device/adb-client';
import { Observer, type ReadingSource } from '../perception/observer';
import type { RuntimeConfig } from '../runtime/config';
import { TaskRunner, type ConfiguredPlanner, type DeviceLockPort, type SupervisorPort } from '../runtime/task-runner';
import { Executor, type ExecutorOptions } from '../tools/executor';
import type { ScreenshotPolicy } from './phone-access';
import type { AppNotesPort } from '../runtime/notes/app-notes-port';
import type { PlanCachePort } from '../runtime/plan-cache-port';

/** A screenshot per turn only for a planner that takes one and settings that send it: otherwise no screencap is paid for. */
export function screenshotPolicyFor(config: RuntimeConfig, configured: ConfiguredPlanner): ScreenshotPolicy {
  const ai = config.settings.aiPlanner;
  return configured.planner.accepts.screenshot && ai.sendScreenshot ? { longEdge: ai.screenshotLongEdge } : false;
}

/** A TaskRunner straight on one adb client, without the app around it: what `amc run` and `amc eval` drive phones with. */
export function createHeadlessRunner(
  adb: AdbClient,
  options: {
    screenshot: ScreenshotPolicy;
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
      screenshot: options.screenshot,
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
