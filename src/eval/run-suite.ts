import type { AdbClient } from '../core/device/adb-client';
import { createHeadlessRunner } from '../core/headless/headless-runner';
import { buildPlanner } from '../core/runtime/build-planner';
import type { RuntimeConfig } from '../core/runtime/config';
import { presetSupervisor } from '../core/runtime/supervisor';
import type { ConfiguredPlanner, TaskHandle } from '../core/runtime/task-runner';
import type { ExecutorOptions } from '../core/tools/executor';
import type { TaskRecord } from '../shared/task';
import type { LatencyProfileName } from '@amc/demo-phone';
import { startEvalPhones, type EvalPhone } from './demo-phones';
import { judgeRecord, type PhoneTask } from './tasks/index';

/** One run of one task on one demo phone, judged from the phone's state. */
export interface EvalAttempt {
  task: PhoneTask;
  /** 1-based: the k-th of `repeat` runs of this task. */
  attempt: number;
  success: boolean;
  /** Why it passed or failed, in the validator's words. */
  verdict: string;
  record: TaskRecord;
  /** Time the host spent around the task (seeding the phone, judging it), outside the runner. */
  hostMs: number;
}

export interface EvalProgress {
  done: number;
  total: number;
  passed: number;
  running: string[];
}

export interface SuiteOptions {
  config: RuntimeConfig;
  adb: AdbClient;
  tasks: readonly PhoneTask[];
  /** Demo phones, each running one task at a time. */
  parallel: number;
  /** Runs per task (pass^k counts a task only when every run passed). */
  repeat: number;
  maxSteps?: number;
  profile?: LatencyProfileName;
  onProgress?: (progress: EvalProgress) => void;
  /** Stops the running tasks and starts no more; the attempts finished so far are returned. */
  signal?: AbortSignal;
  /** How text `input text` cannot type is typed (yadb, then ADBKeyBoard), as in `amc run`. */
  typing?: ExecutorOptions['typing'];
  /** Each task's planner (default: the configured one, afresh per task), e.g. a replay of an earlier run. */
  plannerFor?: (task: PhoneTask) => ConfiguredPlanner;
}

/**
 * Runs the suite on demo phones of its own through the same runtime as `amc run` (TaskRunner, configured
 * planner, Observer, Executor over adb): each phone takes the next task off one queue, so N phones run N
 * tasks at once. Every run starts from the task's seed and is judged by its validator from the phone's state.
 */
export async function runSuite(options: SuiteOptions): Promise<EvalAttempt[]> {
  const queue = Array.from({ length: options.repeat }, (_, round) => options.tasks.map((task) => ({ task, attempt: round + 1 }))).flat();
  const total = queue.length;
  const workers = Math.max(1, Math.min(options.parallel, total));
  const { phones, close } = await startEvalPhones(options.adb, workers, options.profile);
  // One planner per task (a fresh conversation), built now so a configuration problem stops the suite before any task.
  const plannerFor = (task?: PhoneTask) => (task && options.plannerFor ? options.plannerFor(task) : buildPlanner(options.config));
  // The goals themselves ask for their sensitive actions (send, delete...): the suite says yes to them, as
  // `amc run --yes` would; any other question to a person goes unanswered and fails the task.
  const runner = createHeadlessRunner(options.adb, {
    supervisor: presetSupervisor({ allowActions: true }),
    ...(options.typing && { typing: options.typing }),
  });
  const attempts: EvalAttempt[] = [];
  const running = new Map<string, TaskHandle>();
  const progress = () =>
    options.onProgress?.({ done: attempts.length, total, passed: attempts.filter((a) => a.success).length, running: [...running.keys()] });
  const stopAll = () => running.forEach((handle) => handle.stop());
  options.signal?.addEventListener('abort', stopAll);

  const work = async (phone: EvalPhone) => {
    for (let next = queue.shift(); next && !options.signal?.aborted; next = queue.shift()) {
      const { task, attempt } = next;
      const hostStart = performance.now();
      await phone.prepare(task.seed, task.faults);
      const label = options.repeat > 1 ? `${task.id}#${attempt}` : task.id;
      const handle = await runner.start({ serial: phone.serial, goal: task.goal, ...(options.maxSteps && { maxSteps: options.maxSteps }) }, { planner: plannerFor(task) });
      running.set(label, handle);
      progress();
      const taskStart = performance.now();
      const record = await handle.done;
      const taskMs = performance.now() - taskStart;
      running.delete(label);
      const verdict = judgeRecord(task, await phone.state(), record);
      // A cancelled run was not finished by the model: it never counts as a pass.
      const success = verdict.ok && record.status !== 'cancelled';
      attempts.push({ task, attempt, success, verdict: verdict.why, record, hostMs: performance.now() - hostStart - taskMs });
      progress();
    }
  };
  try {
    await Promise.all(phones.map(work));
  } finally {
    options.signal?.removeEventListener('abort', stopAll);
    stopAll();
    await close();
  }
  // In suite order, whichever phone finished first.
  const order = (attempt: EvalAttempt) => attempt.attempt * options.tasks.length + options.tasks.indexOf(attempt.task);
  return attempts.sort((a, b) => order(a) - order(b));
}
