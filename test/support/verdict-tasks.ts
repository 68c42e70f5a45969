// One task of each verdict, as the events the runtime writes: what the test that walks every reader, the browser
// test of History and the result card, and the verdict's own tests read. Their shapes are the real ones (a
// Settings screen, the model's calls, the runtime's checks); their numbers are made up.
import type { Scene } from '../../src/shared/scene';
import type { PlannerInfo, TaskEvent } from '../../src/shared/task';
import type { TaskVerdict } from '../../src/shared/verdict';

export const AI_PLANNER: PlannerInfo = { kind: 'ai', provider: 'anthropic', transport: 'direct', model: 'claude-test', exposesReasoning: true };
const STUB_PLANNER: PlannerInfo = { kind: 'stub', exposesReasoning: false };

export const settingsScene: Scene = {
  screen: { width: 1080, height: 2400, orientation: 'portrait', package: 'com.android.settings', activity: '.Settings', keyboardShown: false },
  elements: [
    { id: 'e1', type: 'TextView', text: 'Settings', bounds: [0, 100, 1080, 200] },
    { id: 'e2', type: 'LinearLayout', text: 'Network & internet | Mobile, Wi-Fi, hotspot', bounds: [0, 300, 1080, 420], clickable: true },
    { id: 'e3', type: 'LinearLayout', text: 'About phone | Android version | 14', bounds: [0, 440, 1080, 560], clickable: true },
  ],
};

const usage = { inputTokens: 1000, outputTokens: 40 };

/** Builds a task's events turn by turn, numbering turns and times as the runtime does. */
export class TaskScript {
  readonly events: TaskEvent[] = [];
  private turn = 0;
  private at = 1_700_000_000_000;

  constructor(
    readonly taskId: string,
    goal: string,
    planner: PlannerInfo = AI_PLANNER,
  ) {
    this.events.push({ type: 'task.started', taskId, at: this.at, goal, serial: '127.0.0.1:5600', planner, maxSteps: 20 });
  }

  private next(): number {
    this.at += 100;
    return this.at;
  }

  /** A turn: observe, the planner's call, and (unless it finishes) the outcome. */
  step(tool: string, args: Record<string, unknown>, outcome: Extract<TaskEvent, { type: 'step.executed' }>['outcome'] | null, options: { source?: 'model' | 'replayed' | 'skipped' | 'runtime'; scene?: Scene } = {}): this {
    const step = ++this.turn;
    const { taskId } = this;
    this.events.push({ type: 'step.observed', taskId, at: this.next(), step, scene: options.scene ?? settingsScene, sceneError: null, screenshot: null, screenChanged: step > 1 ? true : null, observeMs: 50 });
    this.events.push({ type: 'step.planned', taskId, at: this.next(), step, tool, args, rationale: `turn ${step}`, thinking: null, usage, costUsd: null, source: options.source ?? 'model', planMs: 300 });
    if (outcome) this.events.push({ type: 'step.executed', taskId, at: this.next(), step, outcome, executeMs: 20 });
    return this;
  }

  /** A tap on the phone that the next look confirmed (or did not). */
  tap(label: string, verified = true): this {
    const verification = verified
      ? { status: 'verified' as const, check: 'screen-changed' as const, fact: 'the screen changed' }
      : { status: 'not-verified' as const, check: 'screen-changed' as const, fact: 'the screen did not change' };
    return this.step('tap', { element_id: 'e2' }, { ok: true, attempts: 1, durationMs: 30, target: { x: 540, y: 360, elementId: 'e2', label }, verification });
  }

  /** The model asks the person; the person answers. */
  question(question: string, answer: string): this {
    this.step('ask_user', { question }, { ok: true, attempts: 0, durationMs: 0, fromPerson: answer });
    const step = this.turn;
    const { taskId } = this;
    this.events.splice(this.events.length - 1, 0, { type: 'person.asked', taskId, at: this.next(), step, requestId: `r${step}`, request: { kind: 'question', question } });
    this.events.splice(this.events.length - 1, 0, { type: 'person.answered', taskId, at: this.next(), step, requestId: `r${step}`, reply: { kind: 'answer', text: answer }, by: 'person' });
    return this;
  }

  /** The task's end, as the runtime words it (the fields the runtime sets for that end). */
  finish(end: Omit<Extract<TaskEvent, { type: 'task.finished' }>, 'type' | 'taskId' | 'at' | 'usage' | 'durationMs' | 'steps'>, actions: number): this {
    this.events.push({ type: 'task.finished', taskId: this.taskId, at: this.next(), ...end, steps: actions, usage: { inputTokens: 1000 * this.turn, outputTokens: 40 * this.turn }, durationMs: 100 * this.events.length });
    return this;
  }
}

const NO_ACTION = { status: 'not-verified' as const, check: 'action-taken' as const, fact: 'no action was taken in this task, so nothing confirms the goal was reached', said: { code: 'verify.noAction', values: {} } };

/** One task of each verdict, with its goal and what its result card's first line says. */
export function tasksOfEachVerdict(): Record<TaskVerdict, { goal: string; events: TaskEvent[] }> {
  const done = new TaskScript('verdict-done', 'Open Network & internet').tap('Network & internet').step('finish_task', { success: true, reason: 'Network & internet is open' }, null).finish({ status: 'completed', failureReason: null, result: 'Network & internet is open' }, 1);
  // "Call my friend": the model asked, the person answered, the model claimed success without acting.
  const notVerified = new TaskScript('verdict-not-verified', 'Call my friend')
    .question('Which friend should I call?', 'Zed Quill')
    .step('finish_task', { success: true, reason: 'Calling Zed Quill' }, null)
    .finish({ status: 'completed', failureReason: null, result: 'Calling Zed Quill', verification: NO_ACTION }, 0);
  const failed = new TaskScript('verdict-failed', 'Turn on Bluetooth').tap('Network & internet', false).step('finish_task', { success: false, reason: 'There is no Bluetooth switch on this phone' }, null).finish({ status: 'failed', failureReason: 'TaskFailedError: There is no Bluetooth switch on this phone', failure: { error: 'TaskFailedError', message: 'There is no Bluetooth switch on this phone' }, result: null }, 1);
  const stopped = new TaskScript('verdict-stopped', 'Turn off Wi-Fi').tap('Network & internet').finish({ status: 'cancelled', failureReason: 'stopped by the user', failureSaid: { code: 'stop.byPerson', values: {} }, result: null }, 1);
  const lookedOnly = new TaskScript('verdict-looked-only', 'Turn on airplane mode', STUB_PLANNER).step('describe_screen', {}, { ok: true, attempts: 0, durationMs: 2 }).finish({ status: 'completed', failureReason: null, result: 'The screen shows Settings.' }, 1);
  const interrupted = new TaskScript('verdict-interrupted', 'Open About phone').tap('About phone').finish({ status: 'cancelled', failureReason: 'interrupted: the app was closed', failureSaid: { code: 'stop.appClosed', values: {} }, result: null }, 1);
  return {
    done: { goal: 'Open Network & internet', events: done.events },
    'done-not-verified': { goal: 'Call my friend', events: notVerified.events },
    failed: { goal: 'Turn on Bluetooth', events: failed.events },
    stopped: { goal: 'Turn off Wi-Fi', events: stopped.events },
    'looked-only': { goal: 'Turn on airplane mode', events: lookedOnly.events },
    interrupted: { goal: 'Open About phone', events: interrupted.events },
  };
}
