import { isActionStep, POINT_PATTERN, REPEAT_TIMES_MAX, type ActionStep, type Flow, type FlowStep, type FlowStepStatus, type RepeatStep, type RetryStep, type RunFlowStep, type StepCondition, type WaitUntil } from '../../shared/flow';
import { isDenied } from '../../shared/action-words';
import { elementLabel, labelParts, sceneFingerprint } from '../../shared/scene';
import type { Said } from '../../shared/said';
import { actionCall } from '../../shared/supervision-words';
import type { TokenUsage } from '@amc/provider-clients';
import type { Scene, SceneElement } from '../../shared/scene';
import type { PlannedStep, PlannerInfo } from '../../shared/task';
import type { Decision, PlanContext, PlanInput, Planner } from '../runtime/planner';
import { FINISH_TASK } from '../runtime/prompt';
import { asData } from '../runtime/prompt-data';
import { describeAction } from '../runtime/supervised-action';
import { decideAction } from '../runtime/action-policy';
import { ACTION_TOOLS } from '../tools/registry';
import type { ToolCatalog } from '../tools/tool';
import type { FlowChecks } from './flow-checks-port';
import { answerNow } from './flow-answer';
import { isQuestionGoal } from '../../shared/verdict';
import { describeLocator, resolveLocator } from './locator';
import { resolveVariables } from './flow-variables';

/**
 * A flow as a planner: each turn it takes the next step of the flow and grounds it in the turn's fresh Scene, so the
 * TaskRunner carries it out through the same supervised action as a model's step (policy, the person's yes,
 * allow-list, verification). One step per turn, and only on an element the step's locator finds alone in the state
 * it was recorded in (seed D1: every action grounded in the Scene of its turn). A step whose outcome already holds is
 * skipped and says so. Where the screen diverges (the element missing, ambiguous or in another state, an action
 * that did not verify) the model takes over with the flow as a hint, or, without a model, the task stops with the
 * reason; it never acts on a guess.
 */

export interface ReplayPlannerOptions {
  flow: Flow;
  /** How the timeline marks the flow's steps: a replay, or a run that follows the plan cache. */
  source: 'replayed' | 'cache';
  /** The AI planner: runs `ai` steps and takes over where the screen diverges. Absent: the replay stops there. */
  model?: Planner;
  /** Judges `assert` and answers `ask_ai` steps (the flow runner's); absent: a flow with such steps stops at them. */
  checks?: FlowChecks;
  /** Values of `${name}` in the flow's steps (over the flow's own `vars`). */
  vars?: Readonly<Record<string, string>>;
  tools?: ToolCatalog;
  /**
   * Whether a step's lookup or check waits for the screen to show what it needs (see waitingTimeoutMs); default: a
   * replay's steps do, the plan cache's do not (a screen that left the cached run goes to the model at once).
   */
  waits?: boolean;
  /**
   * Where the screen leaves the flow: `model` hands the rest of the goal to the model (when there is one); `fail`
   * fails the run at that step with what was looked for and what the screen shows (a CI run: `amc flow run`).
   */
  onDivergence?: 'model' | 'fail' | 'heal';
  /**
   * Hears how each step went, as soon as it is known (a flow run's per-step report); a healed step comes with the turns
   * the model acted on in its place.
   */
  onStep?(index: number, status: FlowStepStatus, detail: string, healedOn?: readonly number[], said?: Said): void;
  /** Where `screenshot` steps save the screen; absent: such a step fails, saying this run keeps no screenshots. */
  screenshots?: FlowScreenshots;
}

/** Keeps a `screenshot` step's picture of the phone as a file (the run's output folder); never in the task's history. */
export interface FlowScreenshots {
  /** Saves the screen as it is now under the step's name; resolves to where it was saved and its size, in words. */
  save(name: string, signal: AbortSignal): Promise<string>;
}

/** `heal`: an action step whose element does not match is given to the model for at most this many actions. */
export const HEAL_TURNS = 3;

/** How long a lookup or a check waits for the screen by default, as Maestro's do: 17 s, and 7 s for an optional step. */
export const LOOKUP_TIMEOUT_MS = 17_000;
export const OPTIONAL_LOOKUP_TIMEOUT_MS = 7_000;

/** Where the flow is inside a block step (run_flow, repeat, retry): its steps, the next one, and which round this is. */
interface Frame {
  block: RunFlowStep | RepeatStep | RetryStep;
  steps: FlowStep[];
  next: number;
  round: number;
}

/** The steps inside a block, and how it goes round. */
const blockSteps = (block: Frame['block']): FlowStep[] => ('run_flow' in block ? block.run_flow.steps : 'repeat' in block ? block.repeat.steps : block.retry.steps);
const isBlock = (step: FlowStep): step is Frame['block'] => 'run_flow' in step || 'repeat' in step || 'retry' in step;
const conditionWords = (condition: StepCondition) => (condition.visible !== undefined ? `"${condition.visible}" is on screen` : `"${condition.not_visible}" is not on screen`);
/** A swipe that scrolls the content toward `direction`: the finger moves the other way. */
const SWIPE_FOR_SCROLL = { down: 'up', up: 'down', left: 'right', right: 'left' } as const;

/**
 * A step that fails (a check, a lookup with no model to take over, the model saying a sub-goal cannot be reached): the
 * flow stops at it, unless an `optional` step or a `retry` around it takes it in stride. Thrown inside the planner
 * only; plan() returns it as the turn's `fail` decision, with the model's call that said so, if any.
 */
class FlowStepFailed extends Error {
  override name = 'FlowStepFailed';
  constructor(
    message: string,
    readonly call: PlannedStep | null = null,
    /** The message's code, for a reader in another language (a refusal). */
    readonly said?: Said,
  ) {
    super(message);
  }
}

/** The flow step a replayed turn carried out, until the next turn tells whether it did what it did before. */
interface Pending {
  index: number;
  turn: number;
  words: string;
  /** The call and the element it was planned on (its label), to word a refusal in the reader's language. */
  tool: string;
  args: Record<string, unknown>;
  label: string | undefined;
  /** A step inside a block: the block's own line says how it went, once it is done. */
  inner: boolean;
}

/** What a recorded action finds on a Scene: done already, an element (or no element) to act on, or why not (and whether waiting may help). */
type Lookup =
  | { kind: 'done'; words: string }
  | { kind: 'act'; element: SceneElement | undefined }
  | { kind: 'miss'; reason: string; wait: boolean };

const stepWords = (index: number) => `Step ${index + 1}`;
const addUsage = (a: TokenUsage | null, b: TokenUsage | null): TokenUsage | null =>
  a && b ? { inputTokens: a.inputTokens + b.inputTokens, outputTokens: a.outputTokens + b.outputTokens } : (a ?? b);

export function createReplayPlanner(options: ReplayPlannerOptions): Planner {
  return new ReplayPlanner(options);
}

class ReplayPlanner implements Planner {
  readonly info: PlannerInfo;
  readonly accepts;
  private readonly waits: boolean;
  private readonly tools: ToolCatalog;
  private readonly vars: Record<string, string>;
  private next = 0;
  private pending: Pending | null = null;
  /** The model has the rest of the task (the screen diverged from the flow). */
  private handedOver = false;
  /** What the turn's model calls cost before the step it returns (a finished sub-goal, a question): added to that step. */
  private spent: TokenUsage | null = null;
  /** Facts the flow's checks confirmed since the last reported step. */
  private confirmed: string[] = [];
  /** Whether the flow's last step so far has an outcome the runtime checks in code (a switch's state, an app, a field). */
  private endChecked = false;
  private started = false;
  /** The step the model is repairing (`heal`): why it did not match, and the turns the model acted on so far. */
  private healing: { index: number; reason: string; turns: number[] } | null = null;
  /** This turn's latest look at the screen (a waiting step may have looked again). */
  private scene: Scene | null = null;
  /** Whether `scene` is known to show a screen that held still: read settled, or a wait since found it unchanged. */
  private sceneSettled = false;
  /** The blocks the flow is in, innermost last (empty: at a top-level step, `next`). */
  private frames: Frame[] = [];
  /** A scroll_until_visible under way: when it gives up, and the screen its last swipe started from. */
  private scrolling: { until: number; from: string } | null = null;
  /** The steps reported failed so far. */
  private readonly failedSteps = new Set<number>();
  /** Why a step before the steps that always run failed: the run's reason once they are done. */
  private failedBefore: string | null = null;

  constructor(private readonly options: ReplayPlannerOptions) {
    const model = options.model;
    this.info = model ? { ...model.info, kind: options.source === 'cache' ? 'ai' : 'replay' } : { kind: 'replay', exposesReasoning: false };
    // History tells whether the last replayed step went through; a screenshot is only for the model.
    // A replay's steps wait for the screen, and read it once it settled (two equal reads around the layout read).
    this.waits = options.waits ?? options.source === 'replayed';
    this.accepts = { screenshot: model?.accepts.screenshot ?? false, history: true, settledScreen: this.waits };
    this.tools = options.tools ?? ACTION_TOOLS;
    this.vars = { ...options.flow.vars, ...options.vars };
  }

  // Completion only ever comes from the flow's end or the model's finish_task (seed D3).
  async plan(input: PlanInput, context: PlanContext): Promise<Decision> {
    this.spent = null;
    for (;;) {
      try {
        const decision = await this.decide(input, context);
        // The steps that always run are done: the run fails with the failure before them.
        if (this.failedBefore && decision.kind === 'finish') return { kind: 'fail', reason: this.failedBefore, call: null };
        return decision;
      } catch (error) {
        if (!(error instanceof FlowStepFailed)) throw error;
        if (this.alwaysRunAfter(error.message)) continue;
        if (!this.failedBefore) return { kind: 'fail', reason: error.message, call: error.call, ...(error.said && { said: error.said }) };
        return { kind: 'fail', reason: `${this.failedBefore}; then ${error.message.replace(/^Step (\d+)/, 'step $1')}`, call: error.call };
      }
    }
  }

  /** A step failed before the steps that always run (onFlowComplete): on to them, the failure kept for the end. */
  private alwaysRunAfter(reason: string): boolean {
    const from = this.options.flow.alwaysFrom;
    if (from === undefined || this.failedBefore !== null || this.next >= from) return false;
    if (!this.failedSteps.size) this.onStep(this.next, 'failed', reason.replace(/^Step \d+: /, ''));
    this.failedBefore = reason;
    this.next = from;
    this.frames = [];
    this.pending = null;
    this.healing = null;
    this.scrolling = null;
    return true;
  }

  /** Every step's result goes to the run's report; a failure is also kept here (a step fails at most once). */
  private onStep(index: number, status: FlowStepStatus, detail: string, healedOn?: readonly number[], said?: Said): void {
    if (status === 'failed') this.failedSteps.add(index);
    this.options.onStep?.(index, status, detail, healedOn, said);
  }

  private async decide(input: PlanInput, context: PlanContext): Promise<Decision> {
    if (this.handedOver) return this.askModel(input, context, input.goal, false, this.takeoverSource());
    if (!this.started) {
      this.started = true;
      // The cache follows a run that started where this one does; elsewhere the model plans from the start.
      const app = this.options.flow.app;
      if (this.options.source === 'cache' && app && input.scene && input.scene.screen.package !== app) {
        this.handedOver = true;
        return this.askModel(input, context, input.goal);
      }
    }
    const diverged = this.settlePending(input);
    if (diverged && !this.retryAfter(diverged.text)) return this.diverge(diverged.text, input, context, diverged.said);
    if (!input.scene) return this.diverge(`the screen could not be read (${input.sceneError ?? 'no Scene'})`, input, context);
    const { steps } = this.options.flow;
    this.scene = input.scene;
    this.sceneSettled = input.screenSettled === true;
    if (this.healing) {
      const repairing = await this.heal(input, context);
      if (repairing) return repairing;
    }
    while (this.next < steps.length) {
      const index = this.next;
      const step = resolveVariables(this.frames.at(-1)?.steps[this.frames.at(-1)!.next] ?? steps[index]!, this.vars);
      const outcome = await this.controlledStep(index, step, input, context);
      if (outcome === 'next') {
        this.advance();
        continue;
      }
      if (outcome === 'entered') continue;
      if (typeof outcome === 'string' && step.optional) {
        if (!this.frames.length) this.onStep(index, 'passed', `optional, went on without it: ${outcome}`);
        this.advance();
        continue;
      }
      if (typeof outcome === 'string' && this.retryAfter(outcome)) continue;
      if (typeof outcome === 'string' && this.options.onDivergence === 'heal' && this.options.model && isActionStep(step) && !this.frames.length) {
        this.healing = { index, reason: outcome, turns: [] };
        const repairing = await this.heal(input, context);
        if (repairing) return repairing;
        continue;
      }
      if (typeof outcome === 'string') return this.diverge(`${stepWords(index)}: ${outcome}`, input, context);
      return this.report(outcome);
    }
    if (this.options.source === 'cache' && !this.endChecked && this.options.model) {
      // The end state cannot be checked in code: the model confirms the finish (or goes on).
      this.handedOver = true;
      const notice = 'The steps of an earlier successful run of this goal are done. Check on this screen that the goal is reached and finish, or go on.';
      return this.askModel({ ...input, notices: [...(input.notices ?? []), notice] }, context, input.goal);
    }
    const checked = this.confirmed.length ? `; checked: ${this.confirmed.join('; ')}` : '';
    let reason = `every step of the flow is done${checked}`;
    // Only a question's answer is said again: for any other goal the recorded words would report another run.
    const answer = isQuestionGoal(this.options.flow.goal) ? this.options.flow.answer : undefined;
    if (answer) {
      // A question: answered with what this screen shows where the recorded run read its answer.
      const read = answerNow(answer, input.scene);
      if ('problem' in read && this.options.model) return this.diverge(`the answer cannot be read again: ${read.problem}`, input, context);
      reason = 'text' in read ? `${read.text} (read on this screen from ${describeLocator(answer.from)}; ${reason})` : `${reason}; ${read.problem}`;
    }
    return { kind: 'finish', success: true, reason, call: { ...this.planned(FINISH_TASK, { success: true, reason }, null), usage: this.spent } };
  }

  /**
   * A step with what any step may carry: `when` (judged once on this screen: not met, the step is passed over), a block
   * (entered: its first step is next), and a failing check that an `optional` step or a `retry` around it takes in
   * stride (returned as the reason instead of ending the run).
   */
  private async controlledStep(index: number, step: FlowStep, input: PlanInput, context: PlanContext): Promise<PlannedStep | 'next' | 'entered' | string> {
    if (step.when) {
      const holds = this.holds(step.when);
      if (typeof holds === 'string') return holds;
      if (!holds) {
        if (!this.frames.length) this.onStep(index, 'passed', `skipped: only when ${conditionWords(step.when)}`);
        return 'next';
      }
    }
    if (isBlock(step)) return this.enter(index, step);
    try {
      return await this.runStep(index, step, input, context);
    } catch (error) {
      const recoverable = error instanceof FlowStepFailed && (step.optional || this.frames.some((frame) => 'retry' in frame.block));
      if (!recoverable) throw error;
      // The model's call that said the step cannot be done cost what it cost: the next step this turn carries it.
      this.spent = error.call?.usage ?? this.spent;
      return error.message.replace(/^Step \d+: /, '');
    }
  }

  /** Whether the condition holds on this turn's screen (judged by the flow's checks), or why it cannot be judged. */
  private holds(condition: StepCondition): boolean | string {
    const checks = this.options.checks;
    if (!checks) return 'this step has a condition on the screen, and this run has no way to check it';
    return checks.assert(this.scene!, condition.visible !== undefined ? { visible: condition.visible } : { absent: condition.not_visible! }).holds;
  }

  /** Into a block: its first step is next; a `repeat` whose `while` does not hold runs no round. */
  private enter(index: number, block: Frame['block']): 'next' | 'entered' | string {
    if ('repeat' in block && block.repeat.while) {
      const holds = this.holds(block.repeat.while);
      if (typeof holds === 'string') return holds;
      if (!holds) {
        if (!this.frames.length) this.onStep(index, 'passed', `repeated 0 times: ${conditionWords(block.repeat.while)} did not hold`);
        return 'next';
      }
    }
    this.frames.push({ block, steps: blockSteps(block), next: 0, round: 0 });
    return 'entered';
  }

  /**
   * Past the current step: the next one in its block, a `repeat`'s next round (while its `times` and `while` allow),
   * or out of the finished block (a top-level block is then reported passed).
   */
  private advance(): void {
    for (;;) {
      const frame = this.frames.at(-1);
      if (!frame) {
        this.next += 1;
        return;
      }
      frame.next += 1;
      if (frame.next < frame.steps.length) return;
      if ('repeat' in frame.block) {
        const { times, while: condition } = frame.block.repeat;
        frame.round += 1;
        const more = frame.round < (times ?? REPEAT_TIMES_MAX) && (!condition || this.holds(condition) === true);
        if (more) {
          frame.next = 0;
          return;
        }
      }
      this.frames.pop();
      if (!this.frames.length) this.onStep(this.next, 'passed', blockDoneWords(frame));
    }
  }

  /**
   * A step inside a `retry` failed: its steps start again from their first (the failure said in the report), while
   * the retry has tries left; false when no retry is around the step or its tries are used up.
   */
  private retryAfter(reason: string): boolean {
    const at = this.frames.findLastIndex((frame) => 'retry' in frame.block);
    const frame = this.frames[at];
    if (!frame || !('retry' in frame.block)) return false;
    if (frame.round >= frame.block.retry.max) {
      this.frames.length = 0;
      return false;
    }
    this.frames.length = at + 1;
    frame.round += 1;
    frame.next = 0;
    this.pending = null;
    this.scrolling = null;
    this.confirmed.push(`try ${frame.round} failed (${reason}), tried again`);
    return true;
  }

  /**
   * One flow step on this turn's Scene: a step to plan, `next` when it needs no action here (a check that held, a
   * finished sub-goal), or why the flow cannot go on.
   */
  private async runStep(index: number, step: FlowStep, input: PlanInput, context: PlanContext): Promise<PlannedStep | 'next' | string> {
    if (isActionStep(step)) return this.actionStep(index, step, input.step, context);
    if ('ai' in step) {
      if (!this.options.model) return `this step is a goal for the model ("${step.ai}"), and no AI planner is set up`;
      const notice = `This is step ${index + 1} of a recorded flow for the goal ${asData(this.options.flow.goal)}. Reach only this part of it, then call finish_task.`;
      const planned = await this.askModel({ ...input, notices: [...(input.notices ?? []), notice] }, context, step.ai, true);
      if (planned.kind === 'act') return planned.call;
      this.onStep(index, 'passed', 'the model reached this sub-goal');
      return 'next';
    }
    if ('screenshot' in step) return this.screenshot(index, step.screenshot, context);
    const checks = this.options.checks;
    if (!checks) return 'this step is a check on the screen, and this run has no way to check it';
    if ('assert' in step) {
      const result = await this.waitFor<string>((scene) => {
        const checked = checks.assert(scene, step.assert);
        return checked.holds ? { found: checked.fact } : { missing: checked.reason };
      }, this.timeoutOf(step), context);
      if ('missing' in result) {
        this.onStep(index, 'failed', `${result.missing}${this.waitedWords(result.waitedMs)}`);
        throw new FlowStepFailed(`${stepWords(index)}: the check failed: ${result.missing}${this.waitedWords(result.waitedMs)}`);
      }
      this.onStep(index, 'passed', result.found);
      this.confirmed.push(result.found);
      this.endChecked = true;
      return 'next';
    }
    if ('wait_until' in step) return this.waitUntil(index, step.wait_until, checks, context, step.optional);
    if ('scroll_until_visible' in step) return this.scrollUntilVisible(index, step.scroll_until_visible);
    if ('copy_text' in step) return this.copyText(index, step.copy_text, this.timeoutOf(step), context);
    if ('wait_for_settle' in step) {
      const waitedMs = await this.settle(step.wait_for_settle?.timeout ?? LOOKUP_TIMEOUT_MS, context);
      this.onStep(index, 'passed', `the screen settled${this.waitedWords(waitedMs)}`);
      return 'next';
    }
    if (!('ask_ai' in step)) return 'a block step cannot run here';
    const scene = this.scene!;
    const answer = await checks.ask(scene, step.ask_ai, context.signal);
    this.spent = addUsage(this.spent, answer.usage);
    // The model's answer took its time: the screen may have moved since it held still.
    this.sceneSettled = false;
    if (answer.kind === 'yes-no') {
      this.onStep(index, answer.yes ? 'passed' : 'failed', `${answer.yes ? 'yes' : 'no'}: ${answer.why}`);
      if (!answer.yes) throw new FlowStepFailed(`${stepWords(index)}: asked "${step.ask_ai.question}", the model said no: ${answer.why}`);
      this.confirmed.push(`"${step.ask_ai.question}": yes`);
    } else {
      this.onStep(index, 'passed', step.ask_ai.into ? `${step.ask_ai.into} = "${answer.value}"` : `"${answer.value}"`);
      if (step.ask_ai.into) this.vars[step.ask_ai.into] = answer.value;
    }
    return 'next';
  }

  /**
   * A recorded action on the screen: skipped when its outcome holds, planned on the element its locator finds (looking
   * again while the screen changes, until the step's timeout), else why not. The action itself is never retried.
   */
  private async actionStep(index: number, step: ActionStep, turn: number, context: PlanContext): Promise<PlannedStep | string> {
    const words = describeAction(step.tool, step.args, step.target && describeLocator(step.target));
    this.endChecked = step.expect !== undefined;
    const result = await this.waitFor<Exclude<Lookup, { kind: 'miss' }>>((scene) => {
      const lookup = this.lookup(step, words, scene);
      return lookup.kind === 'miss' ? { missing: lookup.reason, wait: lookup.wait } : { found: lookup };
    }, this.timeoutOf(step), context);
    if ('missing' in result) return `${result.missing}${this.waitedWords(result.waitedMs)}`;
    const lookup = result.found;
    if (lookup.kind === 'done') {
      if (!this.frames.length) this.onStep(index, 'skipped-already-done', `skipped: already done (${lookup.words})`);
      this.advance();
      return this.planned(step.tool, step.args, `Skipped: already done (${lookup.words}).`, 'skipped');
    }
    const element = lookup.kind === 'act' ? lookup.element : undefined;
    this.pending = { index, turn, words, tool: step.tool, args: step.args, label: element && elementLabel(element), inner: this.frames.length > 0 };
    this.advance();
    const args = element ? { ...step.args, element_id: element.id } : { ...step.args, ...(step.point && this.pointOf(step.point)) };
    return this.planned(step.tool, args, step.why ?? `${words} (${stepWords(index).toLowerCase()} of the flow)`, this.options.source);
  }

  /** What a recorded action finds on one Scene. */
  private lookup(step: ActionStep, words: string, scene: Scene): Lookup {
    const found = step.target ? resolveLocator(scene, step.target) : null;
    const element = found?.kind === 'found' ? found.element : undefined;
    const done = outcomeHolds(step, scene, element);
    if (done) return { kind: 'done', words: done };
    if (found && found.kind !== 'found') return { kind: 'miss', reason: found.reason, wait: true };
    if (found?.singledOutAmong && this.sensitive(step, scene, found.element)) {
      const alike = describeLocator({ ...step.target!, distinguishedBy: undefined });
      return { kind: 'miss', reason: `${found.singledOutAmong} elements match ${alike}, and a sensitive step is never taken on one of several look-alikes`, wait: false };
    }
    // A point a person wrote (`tap: {x, y}`, `point: 50%,50%`) is theirs to choose; a recorded one is never kept.
    const written = step.point !== undefined || (step.args.x !== undefined && step.args.y !== undefined);
    if (!step.target && !written && this.aimsAtElement(step)) return { kind: 'miss', reason: `${words} names no element, and a replay does not act on a point it cannot name`, wait: false };
    if (element && step.before?.checked !== undefined && element.checked !== step.before.checked) {
      return { kind: 'miss', reason: `${describeLocator(step.target!)} is ${onOff(element.checked)}, not ${onOff(step.before.checked)} as when the flow was recorded`, wait: true };
    }
    return { kind: 'act', element };
  }

  /**
   * Judges the turn's screen with `look`, and while it misses, the next screen that differs from it (the runner looks
   * again: a cheap fingerprint, a layout read only when it changed), until `timeoutMs` has passed. Never a fixed sleep.
   */
  private async waitFor<T>(
    look: (scene: Scene) => { found: T } | { missing: string; wait?: boolean },
    timeoutMs: number,
    context: PlanContext,
  ): Promise<{ found: T } | { missing: string; waitedMs: number }> {
    const started = Date.now();
    const until = started + timeoutMs;
    for (;;) {
      const seen = look(this.scene!);
      if ('found' in seen) return seen;
      const waits = this.waits && context.lookAgain && seen.wait !== false;
      const fresh = waits ? await context.lookAgain!(until) : null;
      if (!fresh) return { missing: seen.missing, waitedMs: waits ? Date.now() - started : 0 };
      this.scene = fresh;
      this.sceneSettled = false;
    }
  }

  /** How long a step waits for the screen: its own timeout, else 7 s when optional, else 17 s. */
  private timeoutOf(step: { timeout?: number; optional?: boolean }): number {
    return step.timeout ?? (step.optional ? OPTIONAL_LOOKUP_TIMEOUT_MS : LOOKUP_TIMEOUT_MS);
  }

  /** A written point (`50%,50%` or `540,1200`) in this screen's pixels. */
  private pointOf(point: string): { x: number; y: number } {
    const [, x, xPercent, y, yPercent] = POINT_PATTERN.exec(point)!;
    const { width, height } = this.scene!.screen;
    const at = (value: string, percent: string, size: number) => Math.round(percent ? (Number(value) / 100) * (size - 1) : Number(value));
    return { x: at(x!, xPercent!, width), y: at(y!, yPercent!, height) };
  }

  /**
   * `scroll_until_visible`: done once the target is on screen; else one swipe this turn (the flow stays at the step),
   * until its timeout passes or a swipe leaves the screen as it was (the list ended): then it fails.
   */
  private scrollUntilVisible(index: number, scroll: { target: NonNullable<ActionStep['target']>; direction: 'up' | 'down' | 'left' | 'right'; timeout?: number }): PlannedStep | 'next' | string {
    const scene = this.scene!;
    const found = resolveLocator(scene, scroll.target);
    const wanted = describeLocator(scroll.target);
    if (found.kind === 'found') {
      this.scrolling = null;
      if (!this.frames.length) this.onStep(index, 'passed', `${wanted} is on screen`);
      return 'next';
    }
    const print = sceneFingerprint(scene);
    const now = Date.now();
    if (this.scrolling && print === this.scrolling.from) {
      this.scrolling = null;
      return `no ${wanted}: scrolling ${scroll.direction} no longer changes the screen`;
    }
    this.scrolling ??= { until: now + (scroll.timeout ?? LOOKUP_TIMEOUT_MS), from: print };
    if (now >= this.scrolling.until) {
      this.scrolling = null;
      return `no ${wanted} after scrolling ${scroll.direction} for ${((scroll.timeout ?? LOOKUP_TIMEOUT_MS) / 1000).toFixed(1)} s`;
    }
    this.scrolling.from = print;
    return this.planned('swipe', { direction: SWIPE_FOR_SCROLL[scroll.direction] }, `Scrolling ${scroll.direction} to find ${wanted} (${stepWords(index).toLowerCase()} of the flow)`, this.options.source);
  }

  /** `copy_text`: the words of the one element the locator finds, kept in a variable for later steps; else the step fails. */
  private async copyText(index: number, copy: { from: NonNullable<ActionStep['target']>; into: string }, timeoutMs: number, context: PlanContext): Promise<'next'> {
    const result = await this.waitFor<string>((scene) => {
      const found = resolveLocator(scene, copy.from);
      if (found.kind !== 'found') return { missing: found.reason };
      const { element } = found;
      const words = element.editable ? element.text : (element.text === undefined ? undefined : labelParts(element.text)[0]) ?? element.desc ?? element.hint;
      return words === undefined ? { missing: `${describeLocator(copy.from)} shows no text to copy` } : { found: words };
    }, timeoutMs, context);
    if ('missing' in result) {
      this.onStep(index, 'failed', `${result.missing}${this.waitedWords(result.waitedMs)}`);
      throw new FlowStepFailed(`${stepWords(index)}: nothing to copy: ${result.missing}${this.waitedWords(result.waitedMs)}`);
    }
    this.vars[copy.into] = result.found;
    if (!this.frames.length) this.onStep(index, 'passed', `${copy.into} = "${result.found}"`);
    return 'next';
  }

  /** `screenshot`: the screen as it is now, saved as a file by the run (never kept in the task's history). */
  private async screenshot(index: number, name: string, context: PlanContext): Promise<'next'> {
    const saver = this.options.screenshots;
    const saved = saver ? await saver.save(name, context.signal).catch((error: unknown) => ({ problem: error instanceof Error ? error.message : String(error) })) : { problem: 'this run saves no screenshots (`amc flow run` does)' };
    if (typeof saved !== 'string') {
      this.onStep(index, 'failed', saved.problem);
      throw new FlowStepFailed(`${stepWords(index)}: no screenshot: ${saved.problem}`);
    }
    if (!this.frames.length) this.onStep(index, 'passed', saved);
    return 'next';
  }

  /** `wait_until`: the screen shows (or stops showing) a text within the timeout, or the step fails. */
  private async waitUntil(index: number, wait: WaitUntil, checks: FlowChecks, context: PlanContext, optional = false): Promise<'next'> {
    const assertion = wait.visible !== undefined ? { visible: wait.visible } : { absent: wait.not_visible! };
    const result = await this.waitFor<string>((scene) => {
      const checked = checks.assert(scene, assertion);
      return checked.holds ? { found: checked.fact } : { missing: checked.reason };
    }, wait.timeout ?? (optional ? OPTIONAL_LOOKUP_TIMEOUT_MS : LOOKUP_TIMEOUT_MS), context);
    if ('missing' in result) {
      this.onStep(index, 'failed', `${result.missing}${this.waitedWords(result.waitedMs)}`);
      throw new FlowStepFailed(`${stepWords(index)}: waited in vain: ${result.missing}${this.waitedWords(result.waitedMs)}`);
    }
    this.onStep(index, 'passed', result.found);
    return 'next';
  }

  /**
   * Looks again until the screen stays the same for one look (two equal reads) or `timeoutMs` passed; the time it took.
   * A screen this turn already saw hold still (its read settled, or an earlier wait) needs no look: Maestro's
   * waitForAnimationToEnd polls for the same two equal screenshots.
   */
  private async settle(timeoutMs: number, context: PlanContext): Promise<number> {
    const started = Date.now();
    const until = started + timeoutMs;
    while (!this.sceneSettled && context.lookAgain && Date.now() < until) {
      const changed = await context.lookAgain(Math.min(until, Date.now() + 1));
      if (!changed) {
        this.sceneSettled = true;
        break;
      }
      this.scene = changed;
    }
    return Date.now() - started;
  }

  private waitedWords(waitedMs: number): string {
    return waitedMs > 0 ? ` (after waiting ${(waitedMs / 1000).toFixed(1)} s for the screen)` : '';
  }

  /** Whether the step on `element` is one the sensitive-action policy asks a person about (deleting, sending, paying…). */
  private sensitive(step: ActionStep, scene: Scene, element: SceneElement): boolean {
    const call = { name: step.tool, args: { ...step.args, element_id: element.id } };
    return decideAction({ call, scene, mode: 'sensitive', allowedApps: null, tools: this.tools }).decision === 'confirm';
  }

  /** Whether the tool's calls land on one element (a tap, not a swipe's region), as the tool declares its aim. */
  private aimsAtElement(step: ActionStep): boolean {
    return this.tools.get(step.tool)?.aim === 'element';
  }

  /** Whether the last replayed step went through and verified; why not (with its code, for a refusal), when it did not. */
  private settlePending(input: PlanInput): { text: string; said?: Said } | null {
    const pending = this.pending;
    this.pending = null;
    if (!pending) return null;
    const turn = input.history?.find((summary) => summary.step === pending.turn);
    if (!turn) return null;
    const { outcome } = turn;
    // A refusal names the action and who refused it: the person said no, which is neither the phone failing nor the flow.
    const refused = isDenied(outcome);
    const failed = refused
      ? `the person said no to ${pending.words}, so it was not done`
      : !outcome.ok
      ? `${pending.words} did not go through (${outcome.error ?? 'unknown error'})`
      : outcome.verification?.status === 'not-verified'
        ? `${pending.words}, but ${outcome.verification.fact}`
        : null;
    const call = refused ? actionCall(pending.tool, pending.args, pending.label) : undefined;
    const said: Said | undefined = call === undefined ? undefined : { code: 'refusal.saidNo', values: { actionCall: call } };
    if (failed || !pending.inner) this.onStep(pending.index, failed ? 'failed' : 'passed', failed ?? outcome.verification?.fact ?? 'done', undefined, said);
    if (!failed) return null;
    return { text: `${stepWords(pending.index)}: ${failed}`, ...(call !== undefined && { said: { code: 'refusal.stepSaidNo', values: { step: pending.index + 1, actionCall: call } } }) };
  }

  /**
   * `heal`: the model carries out what the step meant, on this screen, under the same supervision, in at most HEAL_TURNS
   * actions; its finish_task marks the step healed and the flow goes on after it (null: go on). The model saying it
   * cannot, or running out of actions, fails the step.
   */
  private async heal(input: PlanInput, context: PlanContext): Promise<Decision | null> {
    const healing = this.healing!;
    const { index, reason, turns } = healing;
    const step = resolveVariables(this.options.flow.steps[index]!, this.vars);
    if (turns.length >= HEAL_TURNS) throw new FlowStepFailed(`${stepWords(index)}: ${reason}; the model did not repair it in ${HEAL_TURNS} actions`);
    const notice =
      `Step ${index + 1} of a flow written for the goal ${asData(this.options.flow.goal)} does not match this screen: ${asData(reason)}. ` +
      `Carry out only what that step meant to do, in at most ${HEAL_TURNS - turns.length} more actions, then call finish_task with success=true; ` +
      'call finish_task with success=false if it cannot be done on this screen.';
    const planned = await this.askModel({ ...input, notices: [...(input.notices ?? []), notice] }, context, `Repair flow step ${index + 1}: ${stepHint(step)}`, true);
    if (planned.kind === 'act') {
      turns.push(input.step);
      return this.report(planned.call);
    }
    this.healing = null;
    this.next = index + 1;
    const actions = `${turns.length} ${turns.length === 1 ? 'action' : 'actions'}`;
    this.onStep(index, 'healed', `repaired by the model in ${actions} (${reason})`, turns);
    return null;
  }

  /** The screen left the flow: the model takes the rest (with the flow as a hint), or the replay stops with the reason. */
  private async diverge(reason: string, input: PlanInput, context: PlanContext, said?: Said): Promise<Decision> {
    if (this.options.onDivergence === 'fail' || !this.options.model) throw new FlowStepFailed(reason, null, said);
    this.handedOver = true;
    const rest = this.options.flow.steps.slice(this.next).map((step, offset) => `${this.next + offset + 1}. ${asData(stepHint(step))}`);
    const hint =
      `A recorded flow for this goal was followed until here and cannot go on: ${reason}. Continue the goal from this screen ` +
      `yourself.${rest.length ? ` The flow's remaining steps, as a hint only (the screen may differ): ${rest.join(' ')}` : ''}`;
    return this.askModel({ ...input, notices: [...(input.notices ?? []), hint] }, context, input.goal, false, this.takeoverSource());
  }

  /** A replay marks the steps the model plans once the screen differed, so the timeline says the model planned them. */
  private takeoverSource(): PlannedStep['source'] {
    return this.options.source === 'replayed' ? 'fixed' : 'model';
  }

  /**
   * One model turn for `goal`, its call carrying what the turn's earlier calls cost. For the task's own goal the
   * model's decision is the turn's. For a sub-goal (`subGoal`) its finish only means the sub-goal is reached (its cost
   * carried onto the step the flow plans next on this turn), and its saying the sub-goal cannot be reached fails the step.
   */
  private async askModel(input: PlanInput, context: PlanContext, goal: string, subGoal = false, source: PlannedStep['source'] = 'model'): Promise<Decision> {
    const decision = restamped(await this.options.model!.plan({ ...input, goal }, { signal: context.signal }), (call) => ({ ...call, source, usage: addUsage(this.spent, call.usage) }));
    const reached = decision.kind === 'finish' && decision.success;
    this.spent = subGoal && reached ? (decision.call?.usage ?? this.spent) : null;
    if (subGoal && (decision.kind === 'fail' || (decision.kind === 'finish' && !decision.success))) throw new FlowStepFailed(decision.reason, decision.call);
    return decision;
  }

  private report(step: PlannedStep): Decision {
    const confirmed = this.confirmed.splice(0);
    const rationale = confirmed.length ? `${step.rationale ?? ''} (Checked: ${confirmed.join('; ')}.)`.trim() : step.rationale;
    return { kind: 'act', call: { ...step, rationale, usage: addUsage(this.spent, step.usage) } };
  }

  private planned(tool: string, args: Record<string, unknown>, rationale: string | null, source: PlannedStep['source'] = this.options.source): PlannedStep {
    return { tool, args, rationale, thinking: null, usage: null, costUsd: null, source };
  }
}

/** The decision with its call changed (the step's source, the turn's earlier costs). */
function restamped(decision: Decision, change: (call: PlannedStep) => PlannedStep): Decision {
  if (decision.kind === 'act') return { ...decision, call: change(decision.call) };
  return { ...decision, call: decision.call && change(decision.call) };
}

const onOff = (checked: boolean | undefined) => (checked ? 'on' : 'off');

/** The step's recorded outcome, when it already holds on this Scene, in words ("'Wi-Fi' is on"); null otherwise. */
function outcomeHolds(step: ActionStep, scene: Scene, element: SceneElement | undefined): string | null {
  const expect = step.expect;
  if (!expect) return null;
  const named = step.target ? describeLocator(step.target) : 'the field';
  if (expect.checked !== undefined) return element && element.checked === expect.checked ? `${named} is ${onOff(expect.checked)}` : null;
  if (expect.fieldText !== undefined) return element?.editable && element.text === expect.fieldText ? `${named} shows "${expect.fieldText}"` : null;
  if (expect.app !== undefined) return scene.screen.package === expect.app ? `${expect.app} is in front` : null;
  return null;
}

/** A step as the model's hint lists it. */
function stepHint(step: FlowStep): string {
  if (isActionStep(step)) return describeAction(step.tool, step.args, step.target && describeLocator(step.target));
  if ('ai' in step) return step.ai;
  if ('assert' in step) return `check ${JSON.stringify(step.assert)}`;
  if ('wait_until' in step) return `wait until ${JSON.stringify(step.wait_until)}`;
  if ('wait_for_settle' in step) return 'wait for the screen to settle';
  if ('copy_text' in step) return `copy the words of ${describeLocator(step.copy_text.from)}`;
  if ('screenshot' in step) return `save a screenshot named ${step.screenshot}`;
  if ('scroll_until_visible' in step) return `scroll ${step.scroll_until_visible.direction} until ${describeLocator(step.scroll_until_visible.target)} shows`;
  if (isBlock(step)) return blockSteps(step).map(stepHint).join(', then ');
  return `answer "${step.ask_ai.question}"`;
}

/** How a finished block went, for its report line. */
function blockDoneWords(frame: Frame): string {
  if ('repeat' in frame.block) return `repeated ${frame.round} ${frame.round === 1 ? 'time' : 'times'}`;
  if ('retry' in frame.block) return frame.round ? `passed on try ${frame.round + 1}` : 'passed on the first try';
  return frame.block.run_flow.file ? `the steps of ${frame.block.run_flow.file} passed` : 'its steps passed';
}
