import { isActionStep, type ActionStep, type FlowStep, type FlowStepMark, type FlowTurn, type StepCondition } from '../../shared/flow';
import { elementLabel } from '../../shared/scene';
import { say, type Saying } from '../../shared/said';
import { sayActions } from '../../shared/supervision-words';
import type { TokenUsage } from '@amc/provider-clients';
import type { PlannedStep, PlannerInfo } from '../../shared/task';
import type { Decision, PlanContext, PlanInput, Planner } from '../runtime/planner';
import { FINISH_TASK } from '../../shared/tool-vocabulary';
import { asData } from '../runtime/prompt-data';
import { ACTION_TOOLS } from '../tools/registry';
import type { ToolCatalog } from '../tools/tool';
import { answerNow } from './flow-answer';
import { isQuestionGoal } from '../../shared/verdict';
import { locatorCall, locatorSaidValue } from './locator-said';
import { resolveVariables } from './flow-variables';
import { FlowCursor, isBlock, type Frame } from './flow-cursor';
import { FlowStepFailed, runReason, type StepFailure } from './flow-step-failure';
import { stepHint } from './flow-step-hint';
import { blockDoneWords, conditionWords, isReason, sayAbout, verbatim, waited } from './flow-step-said';
import { HEAL_TURNS, timeoutOf, type ReplayPlannerOptions } from './replay-options';
import { replayedOutcome, type Pending } from './replayed-outcome';
import { ScreenWatch } from './screen-watch';
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
  private confirmed: Saying[] = [];
  /** Whether the flow's last step so far has an outcome the runtime checks in code (a switch's state, an app, a field). */
  private endChecked = false;
  private started = false;
  /** The step the model is repairing (`heal`): why it did not match, and the turns the model acted on so far. */
  private healing: { index: number; reason: Saying; turns: number[] } | null = null;
  /** A scroll_until_visible under way. */
  private readonly scrolling: { current: Scrolling | null } = { current: null };
  /** The steps reported failed so far. */
  private readonly failedSteps = new Set<number>();
  /** Why a step before the steps that always run failed: the run's reason once they are done. */
  private failedBefore: StepFailure | null = null;
  /** The steps whose result this turn knows so far, and the step its plan carries out: the turn's flow marks. */
  private marks: FlowStepMark[] = [];
  private stamp: FlowTurn['step'] = undefined;

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
    this.marks = [];
    this.stamp = undefined;
    try {
      return this.marked(await this.decideOrFail(input, context));
    } catch (error) {
      // An error (a provider outage) ends the task: what this turn knew of the steps before it is not lost with it.
      if (error instanceof Error && this.marks.length) Object.defineProperty(error, 'flow', { value: { settled: this.marks } satisfies FlowTurn });
      throw error;
    }
  }

  private async decideOrFail(input: PlanInput, context: PlanContext): Promise<Decision> {
    for (;;) {
      try {
        const decision = await this.decide(input, context);
        // The steps that always run are done: the run fails with the failure before them.
        if (this.failedBefore && decision.kind === 'finish') return this.failed(this.failedBefore, null);
        return decision;
      } catch (error) {
        if (!(error instanceof FlowStepFailed)) throw error;
        this.markFailed(error.failure);
        if (this.alwaysRunAfter(error.failure)) continue;
        if (!this.failedBefore) return this.failed(error.failure, error.call);
        // The run fails with the first failure, and says the later one after it.
        const { index, reason } = error.failure;
        const then = index === null ? reason.text : `step ${index + 1}: ${reason.text}`;
        return { kind: 'fail', reason: `${runReason(this.failedBefore).text}; then ${then}`, call: error.call };
      }
    }
  }

  /** The turn's fail decision for a step's failure, with its code for a reader in another language. */
  private failed(failure: StepFailure, call: PlannedStep | null): Decision {
    const { text, said } = runReason(failure);
    return { kind: 'fail', reason: text, call, said };
  }

  /** The turn's decision with the flow's marks: on its call, or (a failure) on the decision, for `task.finished`. */
  private marked(decision: Decision): Decision {
    if (!this.marks.length && !this.stamp) return decision;
    const flow: FlowTurn = { ...(this.stamp && { step: this.stamp }), settled: this.marks };
    if (decision.kind === 'fail') return { ...decision, flow };
    return decision.call ? { ...decision, call: { ...decision.call, flow } } : decision;
  }

  /** A failed step says so on its line, unless it already did (a check says what it missed, a refusal who refused). */
  private markFailed(failure: StepFailure): void {
    if (failure.index === null || this.failedSteps.has(failure.index)) return;
    this.onStep(failure.index, 'failed', failure.reason);
  }

  /** A step failed before the steps that always run (onFlowComplete): on to them, the failure kept for the end. */
  private alwaysRunAfter(failure: StepFailure): boolean {
    const from = this.options.flow.alwaysFrom;
    if (from === undefined || this.failedBefore !== null || this.cursor.next >= from) return false;
    this.failedBefore = failure;
    this.cursor.jump(from);
    this.pending = null;
    this.healing = null;
    this.scrolling.current = null;
    return true;
  }

  /** Every step's result is a mark on this turn (the run's report folds them); a failure is also kept here. */
  private onStep(index: number, status: FlowStepMark['status'], detail: Saying, healedOn?: readonly number[]): void {
    if (status === 'failed') this.failedSteps.add(index);
    this.marks.push({ index, status, detail: detail.text, said: detail.said, ...(healedOn && { healedOn: [...healedOn] }) });
  }

  /** Which flow step a planned call carries out: its index, and where it is written (its line, a run_flow's file). */
  private stampOf(index: number): NonNullable<FlowTurn['step']> {
    const line = this.options.flow.lines?.[index];
    const frame = this.cursor.frames.findLast((inside) => 'run_flow' in inside.block && inside.block.run_flow.file);
    const file = frame && 'run_flow' in frame.block ? frame.block.run_flow.file : undefined;
    return { index, ...(line !== undefined && { line }), ...(file !== undefined && { file }) };
  }

  /** The step at `index` under way on this turn's screen, for the steps that carry themselves out. */
  private stepRun(index: number, context: PlanContext): StepRun {
    return { index, inBlock: this.cursor.inBlock, screen: this.screen, context, report: (status, detail) => this.onStep(index, status, detail) };
  }

  private async decide(input: PlanInput, context: PlanContext): Promise<Decision> {
    if (this.handedOver) return this.askModel(input, context, input.goal, null, this.takeoverSource());
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
    if (!input.scene) return this.diverge({ index: null, reason: say('flowRun.screenUnread', { why: input.sceneError ?? 'no Scene' }) }, input, context);
    const { steps } = this.options.flow;
    this.screen.saw(input.scene, input.screenSettled === true);
    if (this.healing) {
      const repairing = await this.heal(input, context);
      if (repairing) return repairing;
    }
    while (this.cursor.next < steps.length) {
      const index = this.cursor.next;
      const step = resolveVariables(this.cursor.current(), this.vars);
      const stamp = this.stampOf(index);
      const outcome = await this.controlledStep(index, step, input, context);
      if (outcome === 'next') {
        this.advance();
        continue;
      }
      if (outcome === 'entered') continue;
      if (isReason(outcome) && step.optional) {
        if (!this.cursor.inBlock) this.onStep(index, 'passed', sayAbout('flowRun.optional', {}, { reasonSaid: outcome }));
        this.advance();
        continue;
      }
      if (isReason(outcome) && this.retryAfter(outcome)) continue;
      if (isReason(outcome) && this.options.onDivergence === 'heal' && this.options.model && isActionStep(step) && !this.cursor.inBlock) {
        this.healing = { index, reason: outcome, turns: [] };
        const repairing = await this.heal(input, context);
        if (repairing) return repairing;
        continue;
      }
      if (isReason(outcome)) return this.diverge({ index, reason: outcome }, input, context);
      return this.report(outcome, stamp);
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
    const done = this.confirmed.length ? sayAbout('flowRun.allDoneChecked', {}, { checkedSaid: this.confirmed }) : say('flowRun.allDone');
    let said = done;
    // Only a question's answer is said again: for any other goal the recorded words would report another run.
    const answer = isQuestionGoal(this.options.flow.goal) ? this.options.flow.answer : undefined;
    if (answer) {
      // A question: answered with what this screen shows where the recorded run read its answer.
      const read = answerNow(answer, input.scene!);
      if ('problem' in read && this.options.model) return this.diverge({ index: null, reason: sayAbout('flowRun.answerNotRead', {}, { problemSaid: read.problem }) }, input, context);
      // The answer is the screen's words; what is said around it is in the reader's language.
      said = 'text' in read ? sayAbout('flowRun.answerRead', { answer: read.text, whereSaid: locatorSaidValue(answer.from) }, { doneSaid: done }) : sayAbout('flowRun.answerLost', {}, { doneSaid: done, problemSaid: read.problem });
    }
    const reason = said.text;
    return { kind: 'finish', success: true, reason, said: said.said, call: { ...this.planned(FINISH_TASK, { success: true, reason }, null), reasonSaid: said.said, usage: this.spent } };
  }

  /**
   * A step with what any step may carry: `when` (judged once on this screen: not met, the step is passed over), a block
   * (entered: its first step is next), and a failing check that an `optional` step or a `retry` around it takes in
   * stride (returned as the reason instead of ending the run).
   */
  private async controlledStep(index: number, step: FlowStep, input: PlanInput, context: PlanContext): Promise<PlannedStep | 'next' | 'entered' | Saying> {
    if (step.when) {
      const holds = this.holds(step.when);
      if (isReason(holds)) return holds;
      if (!holds) {
        if (!this.cursor.inBlock) this.onStep(index, 'passed', sayAbout('flowRun.onlyWhen', {}, { conditionSaid: conditionWords(step.when) }));
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
      return error.failure.reason;
    }
  }

  /** Whether the condition holds on this turn's screen (judged by the flow's checks), or why it cannot be judged. */
  private holds(condition: StepCondition): boolean | Saying {
    const checks = this.options.checks;
    if (!checks) return say('flowRun.noConditionCheck');
    return checks.assert(this.screen.scene!, condition.visible !== undefined ? { visible: condition.visible } : { absent: condition.not_visible! }).holds;
  }

  /** Into a block: its first step is next; a `repeat` whose `while` does not hold runs no round. */
  private enter(index: number, block: Frame['block']): 'next' | 'entered' | Saying {
    if ('repeat' in block && block.repeat.while) {
      const holds = this.holds(block.repeat.while);
      if (isReason(holds)) return holds;
      if (!holds) {
        if (!this.cursor.inBlock) this.onStep(index, 'passed', sayAbout('flowRun.repeatedNone', {}, { conditionSaid: conditionWords(block.repeat.while) }));
        return 'next';
      }
    }
    this.cursor.enter(block);
    return 'entered';
  }

  /**
   * Past the current step: a top-level block it finishes is then reported passed, or, when its last step is an action
   * under way, once the next look shows the action went through (never before).
   */
  private advance(): void {
    const pending = this.pending?.inner ? this.pending : null;
    this.cursor.advance(
      (condition) => this.holds(condition) === true,
      (index, frame) => (pending?.index === index ? (pending.blockDone = blockDoneWords(frame)) : this.onStep(index, 'passed', blockDoneWords(frame))),
    );
  }

  /**
   * A step inside a `retry` failed: its steps start again from their first (the failure said in the report), while
   * the retry has tries left; false when no retry is around the step or its tries are used up.
   */
  private retryAfter(reason: Saying): boolean {
    const round = this.cursor.retry();
    if (round === null) return false;
    this.pending = null;
    this.scrolling.current = null;
    this.confirmed.push(sayAbout('flowRun.triedAgain', { try: round }, { reasonSaid: reason }));
    return true;
  }

  /**
   * One flow step on this turn's Scene: a step to plan, `next` when it needs no action here (a check that held, a
   * finished sub-goal), or why the flow cannot go on.
   */
  private async runStep(index: number, step: FlowStep, input: PlanInput, context: PlanContext): Promise<PlannedStep | 'next' | Saying> {
    if (isActionStep(step)) return this.actionStep(index, step, input.step, context);
    if ('ai' in step) {
      if (!this.options.model) return say('flowRun.noModel', { goal: step.ai });
      const notice = `This is step ${index + 1} of a recorded flow for the goal ${asData(this.options.flow.goal)}. Reach only this part of it, then call finish_task.`;
      const planned = await this.askModel({ ...input, notices: [...(input.notices ?? []), notice] }, context, step.ai, index);
      if (planned.kind === 'act') return planned.call;
      this.onStep(index, 'passed', say('flowRun.subGoalReached'));
      return 'next';
    }
    const run = this.stepRun(index, context);
    if ('screenshot' in step) {
      await screenshotStep(run, step.screenshot, this.options.screenshots);
      return 'next';
    }
    const checks = this.options.checks;
    if (!checks) return say('flowRun.noCheck');
    if ('assert' in step) {
      this.confirmed.push(await assertStep(run, checks, step.assert, timeoutOf(step)));
      this.endChecked = true;
      return 'next';
    }
    if ('wait_until' in step) await waitUntilStep(run, checks, step.wait_until, step.optional);
    else if ('scroll_until_visible' in step) {
      const scrolled = scrollStep(run, step.scroll_until_visible, this.scrolling);
      return scrolled === 'next' || isReason(scrolled) ? scrolled : this.planned('swipe', scrolled.swipe, scrolled.rationale);
    } else if ('copy_text' in step) await copyTextStep(run, step.copy_text, timeoutOf(step), this.vars);
    else if ('wait_for_settle' in step) await settleStep(run, step.wait_for_settle?.timeout);
    else if ('ask_ai' in step) {
      const confirmed = await askAiStep(run, checks, step.ask_ai, this.vars, (usage) => (this.spent = addUsage(this.spent, usage)));
      if (confirmed) this.confirmed.push(confirmed);
    } else return say('flowRun.blockHere');
    return 'next';
  }

  /**
   * A recorded action on the screen: skipped when its outcome holds, planned on the element its locator finds (looking
   * again while the screen changes, until the step's timeout), else why not. The action itself is never retried.
   */
  private async actionStep(index: number, step: ActionStep, turn: number, context: PlanContext): Promise<PlannedStep | Saying> {
    const call = locatorCall(step.tool, step.args, step.target);
    this.endChecked = step.expect !== undefined;
    const result = await this.screen.waitFor<Exclude<StepMatch, { kind: 'miss' }>>((scene) => {
      const match = matchStep(step, call, scene, this.tools);
      return match.kind === 'miss' ? { missing: match.reason, wait: match.wait } : { found: match };
    }, timeoutOf(step), context);
    if ('missing' in result) return waited(result.missing, result.waitedMs);
    const match = result.found;
    if (match.kind === 'done') {
      if (!this.cursor.inBlock) this.onStep(index, 'skipped-already-done', sayAbout('flowRun.skipped', {}, { doneSaid: match.words }));
      this.advance();
      return this.planned(step.tool, step.args, sayAbout('flowRun.skippedWhy', {}, { doneSaid: match.words }), 'skipped');
    }
    const element = match.element;
    const retryFrom = this.cursor.inRetry ? this.cursor.place() : undefined;
    this.pending = { index, turn, tool: step.tool, args: step.args, label: element && elementLabel(element), target: step.target, inner: this.cursor.inBlock, ...(retryFrom && { retryFrom }) };
    this.advance();
    const args = element ? { ...step.args, element_id: element.id } : { ...step.args, ...(step.point && pointOn(step.point, this.screen.scene!)) };
    return this.planned(step.tool, args, step.why ?? sayActions('flowRun.stepWhy', { actionCall: call, step: index + 1 }), this.options.source);
  }

  /**
   * Whether the last replayed step went through and verified; why not (with its code, for a refusal), when it did not
   * and no `retry` around it goes round again (a person's no is never asked again).
   */
  private settlePending(input: PlanInput): StepFailure | null {
    const pending = this.pending;
    this.pending = null;
    if (!pending) return null;
    const outcome = replayedOutcome(pending, input.history);
    if (!outcome) return null;
    if (outcome.diverged && !outcome.refused && pending.retryFrom) {
      // The action may have closed its block when it was planned: the retry goes round from where it was.
      this.cursor.restore(pending.retryFrom);
      if (this.retryAfter(runReason(outcome.diverged))) return null;
    }
    if (outcome.report) this.onStep(pending.index, outcome.report.status, outcome.report.detail);
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
    if (turns.length >= HEAL_TURNS) throw new FlowStepFailed({ index, reason: sayAbout('flowRun.notRepaired', { count: HEAL_TURNS }, { reasonSaid: reason }) });
    const notice =
      `Step ${index + 1} of a flow written for the goal ${asData(this.options.flow.goal)} does not match this screen: ${asData(reason.text)}. ` +
      `Carry out only what that step meant to do, in at most ${HEAL_TURNS - turns.length} more actions, then call finish_task with success=true; ` +
      'call finish_task with success=false if it cannot be done on this screen.';
    const planned = await this.askModel({ ...input, notices: [...(input.notices ?? []), notice] }, context, `Repair flow step ${index + 1}: ${stepHint(step)}`, index);
    if (planned.kind === 'act') {
      turns.push(input.step);
      return this.report(planned.call, this.stampOf(index));
    }
    this.healing = null;
    this.cursor.next = index + 1;
    this.onStep(index, 'healed', sayAbout('flowRun.repaired', { count: turns.length }, { reasonSaid: reason }), turns);
    return null;
  }

  /**
   * The screen left the flow: the model takes the rest (with the flow as a hint), or the replay stops with the reason.
   * Either way the step failed: the model's turns after it carry no flow step, so the steps after it were never run.
   */
  private async diverge(failure: StepFailure, input: PlanInput, context: PlanContext): Promise<Decision> {
    if (this.options.onDivergence === 'fail' || !this.options.model) throw new FlowStepFailed(failure);
    this.markFailed(failure);
    this.handedOver = true;
    const reason = runReason(failure);
    const next = this.cursor.next;
    const rest = this.options.flow.steps.slice(next).map((step, offset) => `${next + offset + 1}. ${asData(stepHint(step))}`);
    const hint =
      `A recorded flow for this goal was followed until here and cannot go on: ${reason.text}. Continue the goal from this screen ` +
      `yourself.${rest.length ? ` The flow's remaining steps, as a hint only (the screen may differ): ${rest.join(' ')}` : ''}`;
    return this.askModel({ ...input, notices: [...(input.notices ?? []), hint] }, context, input.goal, null, this.takeoverSource());
  }

  /** A replay marks the steps the model plans once the screen differed, so the timeline says the model planned them. */
  private takeoverSource(): PlannedStep['source'] {
    return this.options.source === 'replayed' ? 'fixed' : 'model';
  }

  /**
   * One model turn for `goal`, its call carrying what the turn's earlier calls cost. For the task's own goal the
   * model's decision is the turn's. For a sub-goal (`subGoal`) its finish only means the sub-goal is reached (its cost
   * carried onto the step the flow plans next on this turn), and its saying the sub-goal cannot be reached fails the step
   * (`subGoalOf`: the flow step the sub-goal is).
   */
  private async askModel(input: PlanInput, context: PlanContext, goal: string, subGoalOf: number | null = null, source: PlannedStep['source'] = 'model'): Promise<Decision> {
    const decision = restamped(await this.options.model!.plan({ ...input, goal }, { signal: context.signal }), (call) => ({ ...call, source, usage: addUsage(this.spent, call.usage) }));
    const reached = decision.kind === 'finish' && decision.success;
    this.spent = subGoalOf !== null && reached ? (decision.call?.usage ?? this.spent) : null;
    if (subGoalOf !== null && (decision.kind === 'fail' || (decision.kind === 'finish' && !decision.success))) {
      const reason = decision.kind === 'fail' && decision.said ? { text: decision.reason, said: decision.said } : verbatim(decision.reason);
      throw new FlowStepFailed({ index: subGoalOf, reason }, decision.call);
    }
    return decision;
  }

  /**
   * The step this turn takes (the flow's, or the model's in a step's place), stamped with the flow step it carries
   * out, with the facts the flow's checks confirmed since the last one after its rationale.
   */
  private report(step: PlannedStep, stamp: FlowTurn['step']): Decision {
    this.stamp = stamp;
    const confirmed = this.confirmed.splice(0);
    if (!confirmed.length) return { kind: 'act', call: { ...step, usage: addUsage(this.spent, step.usage) } };
    const why = step.rationale === null ? null : step.rationaleSaid ? { text: step.rationale, said: step.rationaleSaid } : verbatim(step.rationale);
    const checked = why ? sayAbout('flowRun.whyChecked', {}, { whySaid: why, checkedSaid: confirmed }) : sayAbout('flowRun.checked', {}, { checkedSaid: confirmed });
    return { kind: 'act', call: { ...step, rationale: checked.text, rationaleSaid: checked.said, usage: addUsage(this.spent, step.usage) } };
  }

  /** A step the flow plans; a rationale the app writes carries its code, a flow's own `why` is its author's words. */
  private planned(tool: string, args: Record<string, unknown>, rationale: string | Saying | null, source: PlannedStep['source'] = this.options.source): PlannedStep {
    const why = typeof rationale === 'string' || rationale === null ? { rationale } : { rationale: rationale.text, rationaleSaid: rationale.said };
    return { tool, args, ...why, thinking: null, usage: null, costUsd: null, source };
  }
}

/** The decision with its call changed (the step's source, the turn's earlier costs). */
function restamped(decision: Decision, change: (call: PlannedStep) => PlannedStep): Decision {
  if (decision.kind === 'act') return { ...decision, call: change(decision.call) };
  return { ...decision, call: decision.call && change(decision.call) };
}
