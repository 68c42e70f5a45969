import type { StepOutcome, ToolCall } from '../../shared/action';
import type { Scene } from '../../shared/scene';
import type { AdbClient } from '../device/adb-client';
import { Observer, type Observation } from '../perception/observer';
import { Executor, type ExecutorOptions } from '../tools/executor';
import type { ExecutorPort, ObservationLike, ObserverPort, ScreenshotPolicy } from '../runtime/task-runner';

export type { ScreenshotPolicy } from '../runtime/task-runner';

/**
 * Observer and Executor on the app's current adb client, rebuilt when that client changes (Settings ->
 * adb server). Each look is told whether to take a screenshot (a task's runner decides it from its planner), so a
 * task whose planner takes no image never pays for a screencap.
 */
export class PhoneAccess {
  private adbClient: AdbClient | undefined;
  private executor: Executor | undefined;
  private observer: Observer | undefined;

  /**
   * @param aroundObserve wraps each task observation, e.g. so the live mirror holds its own captures meanwhile.
   */
  constructor(
    private readonly adb: () => Promise<AdbClient>,
    private readonly aroundObserve: <T>(serial: string, work: () => Promise<T>) => Promise<T> = (_serial, work) => work(),
    private readonly executorOptions: ExecutorOptions = {},
  ) {}

  readonly observerPort: ObserverPort = {
    observe: async (serial, options): Promise<ObservationLike> => {
      const observer = await this.observerFor();
      return this.aroundObserve(serial, () => observer.observe(serial, options));
    },
    screenFingerprint: async (serial, signal) => {
      const observer = await this.observerFor();
      return this.aroundObserve(serial, () => observer.screenFingerprint(serial, signal));
    },
  };

  readonly executorPort: ExecutorPort = {
    execute: async (call, context) => (await this.executorFor()).execute(call, context),
  };

  /**
   * One look at the phone for a caller that plans by itself (an MCP agent), with or without a screenshot:
   * the same Observer a task uses, and the mirror holds its captures meanwhile.
   */
  async observe(serial: string, options: { screenshot: ScreenshotPolicy; signal?: AbortSignal; sceneTokenBudget?: number }): Promise<Observation> {
    const observer = await this.observerFor();
    return this.aroundObserve(serial, () => observer.observe(serial, { signal: options.signal, sceneTokenBudget: options.sceneTokenBudget, screenshot: options.screenshot }));
  }

  /** Runs one tool call outside a task (mirror gestures); a failed outcome becomes an error with its reason. */
  async act(serial: string, call: ToolCall, scene: Scene | null = null): Promise<StepOutcome> {
    const outcome = await (await this.executorFor()).execute(call, { serial, scene });
    if (!outcome.ok) throw new Error(outcome.error ?? `${call.name} failed on ${serial}`);
    return outcome;
  }

  private async current(): Promise<AdbClient> {
    const adb = await this.adb();
    if (adb !== this.adbClient) {
      this.adbClient = adb;
      this.executor = undefined;
      this.observer = undefined;
    }
    return adb;
  }

  private async executorFor(): Promise<Executor> {
    const adb = await this.current();
    return (this.executor ??= new Executor(adb, this.executorOptions));
  }

  /** The one Observer of the current adb client; a look without a screenshot policy takes none. */
  private async observerFor(): Promise<Observer> {
    const adb = await this.current();
    // The helpers that push yadb for typing also push it for a screen that never goes idle.
    const helpers = this.executorOptions.typing?.helpers;
    return (this.observer ??= new Observer(adb, { screenshot: false, ...(helpers && { helpers }) }));
  }
}
