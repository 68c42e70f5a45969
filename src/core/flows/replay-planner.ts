import { isActionStep, type ActionStep, type FlowStep, type FlowStepStatus, type StepCondition } from '../../shared/flow';
import { elementLabel } from '../../shared/scene';
import type { Said } from '../../shared/said';
import type { TokenUsage } from '@amc/provider-clients';
import type { PlannedStep, PlannerInfo } from '../../shared/task';
import type { Decision, PlanContext, PlanInput, Planner } from '../runtime/planner';
import { FINISH_TASK } from '../../shared/tool-vocabulary';
import { asData } from '../runtime/prompt-data';
import { describeAction } from '../runtime/supervised-action';
import { ACTION_TOOLS } from '../tools/registry';
import type { ToolCatalog } from '../tools/tool';
import { answerNow } from './flow-answer';
import { isQuestionGoal } from '../../shared/verdict';
import { describeLocator } from './locator';
import { resolveVariables } from './flow-variables';
import { FlowCursor, isBlock, type Frame } from './flow-cursor';
import { FlowStepFailed } from './flow-step-failure';
import { blockDoneWords, conditionWords, stepHint, stepWords } from './flow-step-hint';
import { HEAL_TURNS, timeoutOf, type ReplayPlannerOptions } from './replay-options';
import { replayedOutcome, type Pending } from './replayed-outcome';
import { ScreenWatch, waitedWords } from './screen-watch';
import { matchStep, pointOn, type StepMatch } from './step-match';
import { askAiStep, assertStep, copyTextStep, screenshotStep, scrollStep, settleStep, waitUntilStep, type Scrolling, type StepRun } from './check-steps';

/**
 * A flow as a planner: each turn it takes the next step of the flow and grounds it in the turn's fresh Scene, so the
 * TaskRunner carries it out through the same supervised action as a model's step (policy, the person's yes,
 * allow-list, verification). One step per turn, and only on an element the step's locator finds alone in the state
 * it was recorded in (seed D1: every action grounded in the Scene of its turn). A step whose outcome already holds is
 * skipped and says so. Where the screen diverges (the element missing, ambiguous or in another state, an action
 * that did not verify) the model takes over with the flow as a hint, or, without a model, the task stops with the
 * reason; it never acts on a guess.
 */

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
  private readonly cursor: FlowCursor;
  private readonly screen: ScreenWatch;
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
  /** A scroll_until_visible under way. */
  private readonly scrolling: { current: Scrolling | null } = { current: null };
  /** The steps reported failed so far. */
  private readonly failedSteps = new Set<number>();
  /** Why a step before the steps that always run failed: the run's reason once they are done. */
  private failedBefore: string | null = null;

  constructor(private readonly options: ReplayPlannerOptions) {
    const model = options.model;
    this.info = model ? { ...model.info, kind: options.source === 'cache' ? 'ai' : 'replay' } : { kind: 'replay', exposesReasoning: false };
    // History tells whether the last replayed step went through; a screenshot is only for the model.
    // A replay's steps wait for the screen, and read it once it settled (two equal reads around the layout read).
    const waits = options.waits ?? options.source === 'replayed';
    this.accepts = { screenshot: model?.accepts.screenshot ?? false, history: true, settledScreen: waits };
    this.tools = options.tools ?? ACTION_TOOLS;
    this.vars = { ...options.flow.vars, ...options.vars };
    this.cursor = new FlowCursor(options.flow.steps);
    this.screen = new ScreenWatch(waits);
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
    if (from === undefined || this.failedBefore !== null || this.cursor.next >= from) return false;
    if (!this.failedSteps.size) this.onStep(this.cursor.next, 'failed', reason.replace(/^Step \d+: /, ''));
    this.failedBefore = reason;
    this.cursor.jump(from);
    this.pending = null;
    this.healing = null;
    this.scrolling.current = null;
    return true;
  }

  /** Every step's result goes to the run's report; a failure is also kept here (a step fails at most once). */
  private onStep(index: number, status: FlowStepStatus, detail: string, healedOn?: readonly number[], said?: Said): void {
    if (status === 'failed') this.failedSteps.add(index);
    this.options.onStep?.(index, status, detail, healedOn, said);
  }

  /** The step at `index` under way on this turn's screen, for the steps that carry themselves out. */
  private stepRun(index: number, context: PlanContext): StepRun {
    return { index, inBlock: this.cursor.inBlock, screen: this.screen, context, report: (status, detail) => this.onStep(index, status, detail) };
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
    this.screen.saw(input.scene, input.screenSettled === true);
    if (this.healing) {
      const repairing = await this.heal(input, context);
      if (repairing) return repairing;
    }
    while (this.cursor.next < steps.length) {
      const index = this.cursor.next;
      const step = resolveVariables(this.cursor.current(), this.vars);
      const outcome = await this.controlledStep(index, step, input, context);
      if (outcome === 'next') {
        this.advance();
        continue;
      }
      if (outcome === 'entered') continue;
      if (typeof outcome === 'string' && step.optional) {
        if (!this.cursor.inBlock) this.onStep(index, 'passed', `optional, went on without it: ${outcome}`);
        this.advance();
        continue;
      }
      if (typeof outcome === 'string' && this.retryAfter(outcome)) continue;
      if (typeof outcome === 'string' && this.options.onDivergence === 'heal' && this.options.model && isActionStep(step) && !this.cursor.inBlock) {
        this.healing = { index, reason: outcome, turns: [] };
        const repairing = await this.heal(input, context);
        if (repairing) return repairing;
        continue;
      }
      if (typeof outcome === 'string') return this.diverge(`${stepWords(index)}: ${outcome}`, input, context);
      return this.report(outcome);
    }
    return this.finishFlow(input, context);
  }

  /** Every step is done: the flow's end (a question answered again on this screen), or the model confirms it. */
  private finishFlow(input: PlanInput, context: PlanContext): Promise<Decision> | Decision {
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
      const read = answerNow(answer, input.scene!);
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
        if (!this.cursor.inBlock) this.onStep(index, 'passed', `skipped: only when ${conditionWords(step.when)}`);
        return 'next';
      }
    }
    if (isBlock(step)) return this.enter(index, step);
    try {
      return await this.runStep(index, step, input, context);
    } catch (error) {
      const recoverable = error instanceof FlowStepFailed && (step.optional || this.cursor.inRetry);
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
    return checks.assert(this.screen.scene!, condition.visible !== undefined ? { visible: condition.visible } : { absent: condition.not_visible! }).holds;
  }

  /** Into a block: its first step is next; a `repeat` whose `while` does not hold runs no round. */
  private enter(index: number, block: Frame['block']): 'next' | 'entered' | string {
    if ('repeat' in block && block.repeat.while) {
      const holds = this.holds(block.repeat.while);
      if (typeof holds === 'string') return holds;
      if (!holds) {
        if (!this.cursor.inBlock) this.onStep(index, 'passed', `repeated 0 times: ${conditionWords(block.repeat.while)} did not hold`);
        return 'next';
      }
    }
    this.cursor.enter(block);
    return 'entered';
  }

  /** Past the current step (a top-level block it finishes is then reported passed). */
  private advance(): void {
    this.cursor.advance(
      (condition) => this.holds(condition),
      (index, frame) => this.onStep(index, 'passed', blockDoneWords(frame)),
    );
  }

  /**
   * A step inside a `retry` failed: its steps start again from their first (the failure said in the report), while
   * the retry has tries left; false when no retry is around the step or its tries are used up.
   */
  private retryAfter(reason: string): boolean {
    const round = this.cursor.retry();
    if (round === null) return false;
    this.pending = null;
    this.scrolling.current = null;
    this.confirmed.push(`try ${round} failed (${reason}), tried again`);
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
    const run = this.stepRun(index, context);
    if ('screenshot' in step) {
      await screenshotStep(run, step.screenshot, this.options.screenshots);
      return 'next';
    }
    const checks = this.options.checks;
    if (!checks) return 'this step is a check on the screen, and this run has no way to check it';
    if ('assert' in step) {
      this.confirmed.push(await assertStep(run, checks, step.assert, timeoutOf(step)));
      this.endChecked = true;
      return 'next';
    }
    if ('wait_until' in step) await waitUntilStep(run, checks, step.wait_until, step.optional);
    else if ('scroll_until_visible' in step) {
      const scrolled = scrollStep(run, step.scroll_until_visible, this.scrolling);
      return typeof scrolled === 'string' ? scrolled : this.planned('swipe', scrolled.swipe, scrolled.rationale);
    } else if ('copy_text' in step) await copyTextStep(run, step.copy_text, timeoutOf(step), this.vars);
    else if ('wait_for_settle' in step) await settleStep(run, step.wait_for_settle?.timeout);
    else if ('ask_ai' in step) {
      const confirmed = await askAiStep(run, checks, step.ask_ai, this.vars, (usage) => (this.spent = addUsage(this.spent, usage)));
      if (confirmed) this.confirmed.push(confirmed);
    } else return 'a block step cannot run here';
    return 'next';
  }

  /**
   * A recorded action on the screen: skipped when its outcome holds, planned on the element its locator finds (looking
   * again while the screen changes, until the step's timeout), else why not. The action itself is never retried.
   */
  private async actionStep(index: number, step: ActionStep, turn: number, context: PlanContext): Promise<PlannedStep | string> {
    const words = describeAction(step.tool, step.args, step.target && describeLocator(step.target));
    this.endChecked = step.expect !== undefined;
    const result = await this.screen.waitFor<Exclude<StepMatch, { kind: 'miss' }>>((scene) => {
      const match = matchStep(step, words, scene, this.tools);
      return match.kind === 'miss' ? { missing: match.reason, wait: match.wait } : { found: match };
    }, timeoutOf(step), context);
    if ('missing' in result) return `${result.missing}${waitedWords(result.waitedMs)}`;
    const match = result.found;
    if (match.kind === 'done') {
      if (!this.cursor.inBlock) this.onStep(index, 'skipped-already-done', `skipped: already done (${match.words})`);
      this.advance();
      return this.planned(step.tool, step.args, `Skipped: already done (${match.words}).`, 'skipped');
    }
    const element = match.element;
    this.pending = { index, turn, words, tool: step.tool, args: step.args, label: element && elementLabel(element), inner: this.cursor.inBlock };
    this.advance();
    const args = element ? { ...step.args, element_id: element.id } : { ...step.args, ...(step.point && pointOn(step.point, this.screen.scene!)) };
    return this.planned(step.tool, args, step.why ?? `${words} (${stepWords(index).toLowerCase()} of the flow)`, this.options.source);
  }

  /** Whether the last replayed step went through and verified; why not (with its code, for a refusal), when it did not. */
  private settlePending(input: PlanInput): { text: string; said?: Said } | null {
    const pending = this.pending;
    this.pending = null;
    if (!pending) return null;
    const outcome = replayedOutcome(pending, input.history);
    if (!outcome) return null;
    if (outcome.report) this.onStep(pending.index, outcome.report.status, outcome.report.detail, undefined, outcome.report.said);
    return outcome.diverged ?? null;
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
    this.cursor.next = index + 1;
    const actions = `${turns.length} ${turns.length === 1 ? 'action' : 'actions'}`;
    this.onStep(index, 'healed', `repaired by the model in ${actions} (${reason})`, turns);
    return null;
  }

  /** The screen left the flow: the model takes the rest (with the flow as a hint), or the replay stops with the reason. */
  private async diverge(reason: string, input: PlanInput, context: PlanContext, said?: Said): Promise<Decision> {
    if (this.options.onDivergence === 'fail' || !this.options.model) throw new FlowStepFailed(reason, null, said);
    this.handedOver = true;
    const next = this.cursor.next;
    const rest = this.options.flow.steps.slice(next).map((step, offset) => `${next + offset + 1}. ${asData(stepHint(step))}`);
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
