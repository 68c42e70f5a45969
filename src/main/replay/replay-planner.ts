import { isActionStep, type ActionStep, type Flow, type FlowStep } from '../../shared/flow';
import type { TokenUsage } from '@amc/provider-clients';
import type { Scene, SceneElement } from '../../shared/scene';
import type { PlannedStep, PlannerInfo } from '../../shared/task';
import { TaskFailedError, type PlanContext, type PlanInput, type Planner, type PlannerDecision } from '../runtime/planner';
import { FINISH_TASK } from '../runtime/prompt';
import { asData } from '../runtime/prompt-data';
import { describeAction } from '../runtime/supervised-action';
import { ACTION_TOOLS } from '../tools/registry';
import type { ToolCatalog } from '../tools/tool';
import type { FlowChecks } from './flow-checks';
import { answerNow } from './flow-answer';
import { describeLocator, resolveLocator } from './locator';
import { fillVariables } from './flow-variables';

/**
 * A flow as a planner: each turn it takes the next step of the flow and grounds it in the turn's fresh Scene, so the
 * TaskRunner carries it out through the same supervised action as a model's step (policy, the person's yes,
 * allow-list, verification). One step per turn, and only on an element the step's locator finds alone in the state
 * it was recorded in (seed D1: every action grounded in the Scene of its turn). A step whose outcome already holds is
 * skipped and says so. Where the screen diverges (the element missing, ambiguous or in another state, an action
 * that did not verify) the model takes over with the flow as a hint, or, without a model, the task stops with the
 * reason; it never acts on a guess.
 */

/** A replay that cannot go on and has no model to hand over to: the task fails with this reason. */
export class ReplayStopped extends Error {
  override name = 'ReplayStopped';
}

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
}

/** The flow step a replayed turn carried out, until the next turn tells whether it did what it did before. */
interface Pending {
  index: number;
  turn: number;
  words: string;
}

const stepWords = (index: number) => `Step ${index + 1}`;
const addUsage = (a: TokenUsage | null, b: TokenUsage | null): TokenUsage | null =>
  a && b ? { inputTokens: a.inputTokens + b.inputTokens, outputTokens: a.outputTokens + b.outputTokens } : (a ?? b);

export function createReplayPlanner(options: ReplayPlannerOptions): Planner {
  return new ReplayPlanner(options);
}

class ReplayPlanner implements Planner {
  readonly info: PlannerInfo;
  readonly accepts;
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

  constructor(private readonly options: ReplayPlannerOptions) {
    const model = options.model;
    this.info = model ? { ...model.info, kind: options.source === 'cache' ? 'ai' : 'replay' } : { kind: 'replay', exposesReasoning: false };
    // History tells whether the last replayed step went through; a screenshot is only for the model.
    this.accepts = { screenshot: model?.accepts.screenshot ?? false, history: true };
    this.tools = options.tools ?? ACTION_TOOLS;
    this.vars = { ...options.flow.vars, ...options.vars };
  }

  // Completion only ever comes from the flow's end or the model's finish_task (seed D3).
  goalReached(): boolean {
    return false;
  }

  async plan(input: PlanInput, context: PlanContext): Promise<PlannedStep[]> {
    this.spent = null;
    if (this.handedOver) return this.askModel(input, context, input.goal);
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
    if (diverged) return this.diverge(diverged, input, context);
    if (!input.scene) return this.diverge(`the screen could not be read (${input.sceneError ?? 'no Scene'})`, input, context);
    const { steps } = this.options.flow;
    while (this.next < steps.length) {
      const index = this.next;
      const outcome = await this.runStep(index, fillVariables(steps[index]!, this.vars), input, input.scene, context);
      if (outcome === 'next') {
        this.next += 1;
        continue;
      }
      if (typeof outcome === 'string') return this.diverge(`${stepWords(index)}: ${outcome}`, input, context);
      return this.report(outcome, context);
    }
    if (this.options.source === 'cache' && !this.endChecked && this.options.model) {
      // The end state cannot be checked in code: the model confirms the finish (or goes on).
      this.handedOver = true;
      const notice = 'The steps of an earlier successful run of this goal are done. Check on this screen that the goal is reached and finish, or go on.';
      return this.askModel({ ...input, notices: [...(input.notices ?? []), notice] }, context, input.goal);
    }
    const checked = this.confirmed.length ? `; checked: ${this.confirmed.join('; ')}` : '';
    let reason = `every step of the flow is done${checked}`;
    const answer = this.options.flow.answer;
    if (answer) {
      // A question: answered with what this screen shows where the recorded run read its answer.
      const read = answerNow(answer, input.scene);
      if ('problem' in read && this.options.model) return this.diverge(`the answer cannot be read again: ${read.problem}`, input, context);
      reason = 'text' in read ? `${read.text} (read on this screen from ${describeLocator(answer.from)}; ${reason})` : `${reason}; ${read.problem}`;
    }
    context.onDecision({ ...this.planned(FINISH_TASK, { success: true, reason }, null), usage: this.spent });
    return [];
  }

  /**
   * One flow step on this turn's Scene: a step to plan, `next` when it needs no action here (a check that held, a
   * finished sub-goal), or why the flow cannot go on.
   */
  private async runStep(index: number, step: FlowStep, input: PlanInput, scene: Scene, context: PlanContext): Promise<PlannedStep | 'next' | string> {
    if (isActionStep(step)) return this.actionStep(index, step, scene, input.step);
    if ('ai' in step) {
      if (!this.options.model) return `this step is a goal for the model ("${step.ai}"), and no AI planner is set up`;
      const notice = `This is step ${index + 1} of a recorded flow for the goal ${asData(this.options.flow.goal)}. Reach only this part of it, then call finish_task.`;
      const planned = await this.askModel({ ...input, notices: [...(input.notices ?? []), notice] }, context, step.ai, true);
      return planned[0] ?? 'next';
    }
    const checks = this.options.checks;
    if (!checks) return 'this step is a check on the screen, and this run has no way to check it';
    if ('assert' in step) {
      const result = checks.assert(scene, step.assert);
      if (!result.holds) throw new TaskFailedError(`${stepWords(index)}: the check failed: ${result.reason}`);
      this.confirmed.push(result.fact);
      this.endChecked = true;
      return 'next';
    }
    const answer = await checks.ask(scene, step.ask_ai, context.signal);
    this.spent = addUsage(this.spent, answer.usage);
    if (answer.kind === 'yes-no') {
      if (!answer.yes) throw new TaskFailedError(`${stepWords(index)}: asked "${step.ask_ai.question}", the model said no: ${answer.why}`);
      this.confirmed.push(`"${step.ask_ai.question}": yes`);
    } else if (step.ask_ai.into) this.vars[step.ask_ai.into] = answer.value;
    return 'next';
  }

  /** A recorded action on this Scene: skipped when its outcome holds, planned on the element its locator finds, else why not. */
  private actionStep(index: number, step: ActionStep, scene: Scene, turn: number): PlannedStep | string {
    const words = describeAction(step.tool, step.args, step.target && describeLocator(step.target));
    const found = step.target ? resolveLocator(scene, step.target) : null;
    const element = found?.kind === 'found' ? found.element : undefined;
    const done = outcomeHolds(step, scene, element);
    this.endChecked = step.expect !== undefined;
    if (done) {
      this.next += 1;
      return this.planned(step.tool, step.args, `Skipped: already done (${done}).`, 'skipped');
    }
    if (found && found.kind !== 'found') return found.reason;
    if (!step.target && this.aimsAtElement(step)) return `${words} names no element, and a replay does not act on a point it cannot name`;
    if (element && step.before?.checked !== undefined && element.checked !== step.before.checked) {
      return `${describeLocator(step.target!)} is ${onOff(element.checked)}, not ${onOff(step.before.checked)} as when the flow was recorded`;
    }
    this.pending = { index, turn, words };
    this.next += 1;
    const args = element ? { ...step.args, element_id: element.id } : step.args;
    return this.planned(step.tool, args, step.why ?? `${words} (${stepWords(index).toLowerCase()} of the flow)`, this.options.source);
  }

  /** Whether the tool aims at an element and this call gives it none (a tap without a target, not a swipe with a direction). */
  private aimsAtElement(step: ActionStep): boolean {
    const effects = this.tools.get(step.tool)?.effectsOf(step.args);
    return effects?.target === 'element' && !('direction' in step.args) && !('from_x' in step.args);
  }

  /** Whether the last replayed step went through and verified; why not, when it did not. */
  private settlePending(input: PlanInput): string | null {
    const pending = this.pending;
    this.pending = null;
    if (!pending) return null;
    const turn = input.history?.find((summary) => summary.step === pending.turn);
    if (!turn) return null;
    const { outcome } = turn;
    if (!outcome.ok) return `${stepWords(pending.index)}: ${pending.words} did not go through (${outcome.error ?? 'unknown error'})`;
    if (outcome.verification?.status === 'not-verified') return `${stepWords(pending.index)}: ${pending.words}, but ${outcome.verification.fact}`;
    return null;
  }

  /** The screen left the flow: the model takes the rest (with the flow as a hint), or the replay stops with the reason. */
  private async diverge(reason: string, input: PlanInput, context: PlanContext): Promise<PlannedStep[]> {
    const model = this.options.model;
    if (!model) throw new ReplayStopped(reason);
    this.handedOver = true;
    const rest = this.options.flow.steps.slice(this.next).map((step, offset) => `${this.next + offset + 1}. ${asData(stepHint(step))}`);
    const hint =
      `A recorded flow for this goal was followed until here and cannot go on: ${reason}. Continue the goal from this screen ` +
      `yourself.${rest.length ? ` The flow's remaining steps, as a hint only (the screen may differ): ${rest.join(' ')}` : ''}`;
    return this.askModel({ ...input, notices: [...(input.notices ?? []), hint] }, context, input.goal);
  }

  /**
   * One model turn for `goal`. Its decision, with what the turn's earlier calls cost, is the turn's plan: reported here
   * for the task's own goal, and returned for a sub-goal (`subGoal`), whose finish_task only means the sub-goal is
   * reached: an empty plan here, its cost carried onto the step the flow plans next on this turn.
   */
  private async askModel(input: PlanInput, context: PlanContext, goal: string, subGoal = false): Promise<PlannedStep[]> {
    const model = this.options.model!;
    const decisions: PlannerDecision[] = [];
    const inner: PlanContext = { signal: context.signal, onDecision: (decision) => decisions.push(decision) };
    const withSpent = (decision: PlannerDecision): PlannerDecision => ({ ...decision, usage: addUsage(this.spent, decision.usage) });
    let steps: PlannedStep[];
    try {
      steps = await model.plan({ ...input, goal }, inner);
    } catch (error) {
      const last = decisions.at(-1);
      if (last) context.onDecision(withSpent(last));
      throw error;
    }
    const last = decisions.at(-1);
    const decision = last && withSpent(last);
    this.spent = subGoal && steps.length === 0 ? (decision?.usage ?? this.spent) : null;
    if (subGoal) return steps.map((step) => ({ ...step, usage: decision?.usage ?? step.usage }));
    if (decision) context.onDecision(decision);
    return steps;
  }

  private report(step: PlannedStep, context: PlanContext): PlannedStep[] {
    const confirmed = this.confirmed.splice(0);
    const rationale = confirmed.length ? `${step.rationale ?? ''} (Checked: ${confirmed.join('; ')}.)`.trim() : step.rationale;
    const reported = { ...step, rationale, usage: addUsage(this.spent, step.usage) };
    context.onDecision(reported);
    return [reported];
  }

  private planned(tool: string, args: Record<string, unknown>, rationale: string | null, source: PlannedStep['source'] = this.options.source): PlannedStep {
    return { tool, args, rationale, thinking: null, usage: null, costUsd: null, source };
  }
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
  return `answer "${step.ask_ai.question}"`;
}
