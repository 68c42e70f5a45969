/** In-memory observer, executor and planners for TaskRunner tests (the runner's ports, not adb or SDKs). */
import type { StepOutcome, ToolCall } from '../../../src/shared/action';
import type { Scene } from '../../../src/shared/scene';
import type { PlannedStep } from '../../../src/shared/task';
import type { ExecutorPort, ObservationLike, ObserverPort, ScreenshotPolicy } from '../../../src/core/runtime/task-runner';
import type { Decision, PlanContext, PlanInput, Planner, PlannerCapabilities } from '../../../src/core/runtime/planner';

export function sceneWith(...labels: string[]): Scene {
  return {
    screen: { width: 1080, height: 2400, orientation: 'portrait', package: 'com.example', keyboardShown: false },
    elements: labels.map((text, i) => ({ id: `e${i + 1}`, type: 'TextView', text, bounds: [0, i * 100, 1080, i * 100 + 90], clickable: true })),
  };
}

export const PNG_BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

/** Returns the scenes in turn (the last one repeats); `screenshot` adds a small image to each, told to or not (a careless observer). */
export class FakeObserver implements ObserverPort {
  calls = 0;
  signals: AbortSignal[] = [];
  /** The Scene token budget each observation was asked for. */
  sceneTokenBudgets: Array<number | undefined> = [];
  /** What each observation was told about its screenshot. */
  screenshotsTold: ScreenshotPolicy[] = [];
  constructor(
    private readonly scenes: Array<Scene | (() => Scene)> = [sceneWith('Home')],
    private readonly options: { screenshot?: boolean; fail?: (call: number) => Error | null; hang?: boolean } = {},
  ) {}

  async observe(_serial: string, { signal, sceneTokenBudget, screenshot }: { signal?: AbortSignal; sceneTokenBudget?: number; screenshot: ScreenshotPolicy }): Promise<ObservationLike> {
    this.calls += 1;
    this.sceneTokenBudgets.push(sceneTokenBudget);
    this.screenshotsTold.push(screenshot);
    if (signal) this.signals.push(signal);
    const failure = this.options.fail?.(this.calls);
    if (failure) throw failure;
    if (this.options.hang) await new Promise(() => undefined);
    const next = this.scenes[Math.min(this.calls - 1, this.scenes.length - 1)]!;
    const scene = typeof next === 'function' ? next() : next;
    return {
      scene,
      ...(this.options.screenshot ? { screenshot: { bytes: PNG_BYTES, mediaType: 'image/png' as const, width: 540, height: 1200, scale: 2 } } : {}),
    };
  }
}

export class FakeExecutor implements ExecutorPort {
  calls: Array<{ call: ToolCall; context: Record<string, unknown> }> = [];
  constructor(private readonly outcome: (call: ToolCall, n: number) => StepOutcome | Promise<StepOutcome> = () => ({ ok: true, attempts: 1, durationMs: 1 })) {}

  async execute(call: ToolCall, context: { serial: string; scene: Scene | null; signal?: AbortSignal }): Promise<StepOutcome> {
    this.calls.push({ call, context: { ...context } });
    return this.outcome(call, this.calls.length);
  }
}

/** A planner whose plan() is a function of the input; records every input it got. */
export class ScriptedPlanner implements Planner {
  inputs: PlanInput[] = [];
  contexts: PlanContext[] = [];
  readonly info = { kind: 'ai' as const, provider: 'anthropic' as const, transport: 'direct' as const, model: 'scripted', exposesReasoning: true };
  constructor(
    private readonly decide: (input: PlanInput, context: PlanContext) => Decision | Promise<Decision>,
    readonly accepts: PlannerCapabilities = { screenshot: true, history: true },
  ) {}

  async plan(input: PlanInput, context: PlanContext): Promise<Decision> {
    this.inputs.push(input);
    this.contexts.push(context);
    return this.decide(input, context);
  }
}

export { act } from '../../../src/core/runtime/planner';

/** The planner's finish without a call (as the stub ends): the goal reached, nothing claimed. */
export const done = (): Decision => ({ kind: 'finish', success: true, reason: null, call: null });

/** A model's finish_task(success=true, reason) as the planner decides it. */
export const finished = (reason: string, usage: PlannedStep['usage'] = null): Decision => ({
  kind: 'finish',
  success: true,
  reason,
  call: { tool: 'finish_task', args: { success: true, reason }, rationale: null, thinking: null, usage, costUsd: null, source: 'model' },
});

export const step = (tool: string, args: Record<string, unknown> = {}, rationale: string | null = null): PlannedStep => ({
  tool,
  args,
  rationale,
  thinking: null,
  usage: null,
  costUsd: null,
  source: 'model',
});

export const never = <T>() => new Promise<T>(() => undefined);
