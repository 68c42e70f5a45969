import { ENGLISH } from '../shared/i18n/translate';
import { randomUUID } from 'node:crypto';
import type { CurrentTask, LaunchInput, LaunchStarted, ReplayTaskInput, RunTaskInput, TaskControlResult } from '../shared/contract/tasks';
import { deviceGroupsOf, phonesOfLaunch } from '../shared/device-groups';
import { launchRowOf, refusedRow, type LaunchPhones } from '../shared/launch';
import type { RunTaskRequest, TaskEvent, TaskRecord } from '../shared/task';
import type { EventHub } from './ipc/event-hub';
import type { Flow } from '../shared/flow';
import { flowRunPlanner } from '../core/flows/flow-planner';
import { buildPlanner } from '../core/runtime/build-planner';
import { applyTaskOverrides, type RuntimeConfig } from '../core/runtime/config';
import { APP_CLOSED_REASON, TaskRunner, type ConfiguredPlanner, type DeviceLockPort, type TaskHandle } from '../core/runtime/task-runner';
import { ReplayRefused, replayPlannerFor } from '../core/flows/replay-task';
import { planCacheLearner, withPlanCache } from '../core/flows/plan-cache';
import type { PlanCacheStore } from '../core/storage/plan-cache-store';
import type { DeviceLocks } from '../core/storage/device-lock';
import type { AppNotesPort } from '../core/runtime/notes/app-notes-port';
import type { TaskStore } from '../core/storage/task-store';
import type { PhoneAccess } from '../core/headless/phone-access';
import { SupervisionDesk } from './supervision-desk';
import { sayingOf } from '../shared/said';

export interface TaskServiceOptions {
  events: Pick<EventHub, 'publish'>;
  store: TaskStore;
  phone: PhoneAccess;
  /** Settings + secrets + environment, read afresh for every task (changes apply to the next task). */
  loadConfig: () => Promise<RuntimeConfig>;
  /** Throws a plain-words reason when the phone cannot take a task now (not connected, unauthorized...). */
  checkDevice: (serial: string) => Promise<void>;
  /** Keeps other processes (`amc run`, another window's host) off a phone while a task here drives it. */
  deviceLock?: DeviceLockPort & Partial<Pick<DeviceLocks, 'revokeAgent'>>;
  /** Notes per app the tasks learn and read (when Settings turn them on). */
  appNotes?: AppNotesPort;
  /** The plan cache the tasks learn from and follow ("Reuse successful runs"); absent: none. */
  planCache?: PlanCacheStore;
  /** How long close() waits for stopped tasks to record their end. */
  closeTimeoutMs?: number;
  /** The serial of this app's demo phone number N, started if it is not running (a schedule names it by number). */
  demoPhone?: (number: number) => Promise<string>;
}

interface Running {
  handle: TaskHandle;
  serial: string;
  /** True between `task.paused` and `task.resumed`: the agent is holding and the person may use the phone. */
  holding: boolean;
  pauseRequested: boolean;
}

/**
 * Tasks for the windows: starts them with the current configuration, records every event in history
 * (append-only) and forwards it to every window, and knows which device is busy so mirror gestures never
 * fight the agent.
 */
export class TaskService {
  private readonly runner: TaskRunner;
  private readonly running = new Map<string, Running>();
  /** Task ids in start order, newest last. */
  private readonly order: string[] = [];
  private readonly writes = new Set<Promise<void>>();
  /** Requests the tasks wait on a person for (questions, confirmations, hand-overs, loops). */
  readonly desk: SupervisionDesk;

  constructor(private readonly options: TaskServiceOptions) {
    this.desk = new SupervisionDesk();
    this.runner = new TaskRunner({
      observer: options.phone.observerPort,
      executor: options.phone.executorPort,
      plannerSource: async () => buildPlanner(await options.loadConfig()),
      ...(options.deviceLock && { deviceLock: options.deviceLock }),
      supervisor: this.desk,
      ...(options.appNotes && { appNotes: options.appNotes }),
      ...(options.planCache && { planCache: planCacheLearner(options.planCache) }),
    });
    this.runner.on((event) => this.onEvent(event));
  }

  async run(input: RunTaskInput & { launchId?: string }): Promise<TaskRecord> {
    const config = applyTaskOverrides(await this.options.loadConfig(), input.overrides ?? {});
    // Building the planner checks what it needs (keys, URLs): a ConfigError here means nothing started.
    const planner = buildPlanner(config, undefined, input.language);
    const cache = this.options.planCache;
    const configured = cache ? await withPlanCache(planner, input.goal, { cache, history: this.options.store }, config.settings.aiPlanner.reuseRuns) : planner;
    return this.start(input, configured);
  }

  /** A flow file's steps on a phone as a task (the flow's goal, its own planner: see flowRunPlanner). */
  async runFlow(serial: string, flow: Flow, launchId?: string): Promise<TaskRecord> {
    const config = await this.options.loadConfig();
    return this.start({ serial, goal: flow.goal, ...(launchId && { launchId }) }, flowRunPlanner(flow, config, buildPlanner(config)));
  }

  /** A finished task's recorded steps, carried out again as a new task (ReplayRefused when it cannot be replayed). */
  async replay(input: ReplayTaskInput): Promise<TaskRecord> {
    const record = await this.options.store.get(input.taskId);
    if (!record) throw new ReplayRefused(`there is no task ${input.taskId} in history`);
    const config = await this.options.loadConfig();
    return this.start({ serial: input.serial, goal: record.goal }, replayPlannerFor(record, buildPlanner(config), { letModelFix: input.letModelFix ?? false }));
  }

  private async start(input: RunTaskRequest, configured: ConfiguredPlanner): Promise<TaskRecord> {
    await this.options.checkDevice(input.serial);
    const handle = await this.runner.start(
      {
        serial: input.serial,
        goal: input.goal,
        ...(input.maxSteps !== undefined && { maxSteps: input.maxSteps }),
        ...(input.allowedApps && { allowedApps: input.allowedApps }),
        ...(input.launchId && { launchId: input.launchId }),
      },
      { planner: configured },
    );
    this.running.set(handle.id, { handle, serial: input.serial, holding: false, pauseRequested: false });
    this.order.push(handle.id);
    void handle.done.finally(() => this.forget(handle.id));
    return this.snapshot(handle.id) ?? (await handle.done);
  }

  /**
   * One goal on several phones at once, each its own task under one launch id. A phone that cannot take it gets a
   * failed row with the reason (in plain words) while the others run; only a launch with no phone at all is refused.
   */
  async launch(input: LaunchInput): Promise<LaunchStarted> {
    const { phones, ...task } = input;
    return this.launchOn(phones, input.goal, (serial, launchId) => this.run({ ...task, serial, launchId }));
  }

  /** A flow on several phones at once, each its own task under one launch id (a schedule of a flow fires this). */
  async launchFlow(phones: LaunchPhones, flow: Flow): Promise<LaunchStarted> {
    return this.launchOn(phones, flow.goal, (serial, launchId) => this.runFlow(serial, flow, launchId));
  }

  private async launchOn(phones: LaunchPhones, goal: string, startOn: (serial: string, launchId: string) => Promise<TaskRecord>): Promise<LaunchStarted> {
    const config = await this.options.loadConfig();
    const serials = await this.serialsOf(phones, config);
    const launchId = randomUUID();
    const rows = await Promise.all(
      serials.map(async (serial) => {
        try {
          return launchRowOf(await startOn(serial, launchId));
        } catch (error) {
          return refusedRow(serial, sayingOf(error));
        }
      }),
    );
    return { launchId, goal, rows };
  }

  private async serialsOf(phones: LaunchPhones, config: RuntimeConfig): Promise<string[]> {
    switch (phones.kind) {
      case 'serials':
        return [...new Set(phones.serials)];
      case 'group':
        return phonesOfLaunch({ group: phones.group }, [], deviceGroupsOf(config.settings.fleet.deviceGroups), ENGLISH);
      case 'demo':
        if (!this.options.demoPhone) throw new Error('this app runs no demo phones');
        return [await this.options.demoPhone(phones.number)];
    }
  }

  async stop(taskId?: string, serial?: string): Promise<TaskControlResult> {
    const task = serial && !taskId ? this.runningOn(serial) : this.select(taskId);
    task?.handle.stop();
    if (!task && serial) {
      const agent = await this.options.deviceLock?.revokeAgent?.(serial);
      if (agent) return { taskId: agent.taskId, status: 'cancelled', paused: false };
    }
    return this.control(task);
  }

  pause(taskId?: string): TaskControlResult {
    const task = this.select(taskId);
    if (task) {
      task.pauseRequested = true;
      task.handle.pause();
    }
    return this.control(task);
  }

  resume(taskId?: string, note?: string): TaskControlResult {
    const task = this.select(taskId);
    if (task) {
      task.pauseRequested = false;
      task.handle.resume(note);
    }
    return this.control(task);
  }

  current(serial?: string): CurrentTask {
    const ids = serial ? this.order.filter((id) => this.running.get(id)?.serial === serial) : this.order;
    const id = ids.at(-1);
    const task = id ? this.snapshot(id) : undefined;
    return { task: task ?? null, paused: id ? (this.running.get(id)?.pauseRequested ?? false) : false };
  }

  /**
   * Why a person may not use this device's mirror now (a task drives it and is not holding), or null.
   * A pause counts once the task actually holds between turns.
   */
  busyReason(serial: string): string | null {
    for (const task of this.running.values()) {
      if (task.serial === serial && !task.holding && !this.desk.handsPhoneOver(task.handle.id)) {
        return task.pauseRequested
          ? 'The task is pausing after its current step; try again in a moment.'
          : 'A task is running on this phone. Pause or stop it to use the mirror.';
      }
    }
    return null;
  }

  /** Stops every task (as interrupted by the app closing, not by a person) and waits (bounded) until their ends are recorded. */
  async close(): Promise<void> {
    const tasks = [...this.running.values()];
    for (const task of tasks) task.handle.stop(APP_CLOSED_REASON);
    const ended = Promise.all(tasks.map((task) => task.handle.done));
    await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, this.options.closeTimeoutMs ?? 3000).unref())]);
    await Promise.all([...this.writes]);
  }

  private forget(taskId: string): void {
    this.running.delete(taskId);
    const index = this.order.indexOf(taskId);
    if (index >= 0) this.order.splice(index, 1);
  }

  private runningOn(serial: string): Running | undefined {
    const id = this.order.findLast((candidate) => this.running.get(candidate)?.serial === serial);
    return id ? this.running.get(id) : undefined;
  }

  private select(taskId?: string): Running | undefined {
    if (taskId) return this.running.get(taskId);
    const id = this.order.at(-1);
    return id ? this.running.get(id) : undefined;
  }

  private control(task: Running | undefined): TaskControlResult {
    if (!task) return { taskId: null, status: null, paused: false };
    const record = this.snapshot(task.handle.id);
    return { taskId: task.handle.id, status: record?.status ?? null, paused: task.pauseRequested };
  }

  private snapshot(taskId: string): TaskRecord | undefined {
    return this.runner.activeTasks().find((record) => record.id === taskId);
  }

  private onEvent(event: TaskEvent): void {
    const task = this.running.get(event.taskId);
    if (task && event.type === 'task.paused') task.holding = true;
    if (task && event.type === 'task.resumed') task.holding = false;
    if (event.type === 'task.finished') this.forget(event.taskId);
    this.options.events.publish('task.event', event);
    const write = this.options.store.append(event).then(
      () => {
        if (event.type === 'task.started') this.options.events.publish('history.changed', { id: event.taskId, change: 'added' });
        if (event.type === 'task.finished') this.options.events.publish('history.changed', { id: event.taskId, change: 'updated' });
      },
      (error: unknown) => {
        console.error(`History could not record ${event.type} of task ${event.taskId}: ${error instanceof Error ? error.message : String(error)}`);
      },
    );
    this.writes.add(write);
    void write.finally(() => this.writes.delete(write));
  }
}
