import { randomUUID } from 'node:crypto';
import type { StepOutcome, ToolCall, Verification } from '../../shared/action';
import { nameInLabel, type Scene } from '../../shared/scene';
import { actionPhrase, DENIED } from '../../shared/action-words';
import { actionCall, unansweredCode } from '../../shared/supervision-words';
import { say, saidList, type Saying } from '../../shared/said';
import type { ConfirmationMode } from '../../shared/settings-catalog';
import { PersonReplySchema, replyFits, type PersonReply, type PersonRequest, type PlannedStep, type TaskEvent } from '../../shared/task';
import { GO_BACK } from '../tools/actions/keys';
import type { ToolCatalog } from '../tools/tool';
import { appLeftTo, decideAction } from './action-policy';
import { abortable, failureReasonOf, STOPPED, stopReasonOf } from './cancellation';
import type { SupervisorDecision, SupervisorPort } from './supervisor';
import { verifyAction } from './verify-outcome';

/**
 * One supervised action: the policy, the person when it asks, the Executor, the check of what the next Scene shows,
 * each recorded as a task event. Everything that acts on a phone goes through it: the TaskRunner's turns, an MCP
 * agent's `act`, and later a replayed run.
 */

/** What acting needs from tools: run one call against this turn's Scene. Errors are outcomes. */
export interface ExecutorPort {
  /** `allowedApps`: the task's app allow-list, which the Executor enforces for calls that open an app (absent: any app). */
  execute(call: ToolCall, context: { serial: string; scene: Scene | null; signal?: AbortSignal; allowedApps?: readonly string[] }): Promise<StepOutcome>;
}

/** Who acts, where, under which supervision; the same for every action of one task (or one agent on one phone). */
export interface ActionScope {
  taskId: string;
  serial: string;
  signal: AbortSignal;
  supervisor: SupervisorPort;
  /** Packages the actions may open and act in; null: any. */
  allowedApps: readonly string[] | null;
  /** The confirmation setting for the next action (an agent's may change between actions). */
  confirmation(): ConfirmationMode;
  emit(event: TaskEvent): void;
  now(): number;
  /** Time spent waiting for a person, which is not the agent's time. */
  waited?(ms: number): void;
}

export interface ActionPorts {
  executor: ExecutorPort;
  tools: ToolCatalog;
}

/** How a person's reply (or an abort) ends the work: cancelled when stopped, failed when nobody answered. */
export interface Ended {
  kind: 'ended';
  status: 'cancelled' | 'failed';
  reason: string | Saying;
}

export type ActionResult = { kind: 'executed' | 'denied'; outcome: StepOutcome } | Ended;

/** An app outside the task's allowed apps that an action led into, and that action in words. */
export interface LeftTo {
  app: string;
  /** The action that led there, as guards' messages name it (`Tap 'Browser'`). */
  action: string;
  /** That action as a message carries it, to be worded in the reader's language (`actionCall`). */
  call: string;
}

/** What the observation after an action told about it. */
export interface Settled {
  /** What the runtime could check (null: nothing to check, or no action to settle). */
  verification: Verification | null;
  /** The app outside the allowed apps the action led into (the runtime then goes back: `goBack`); null when none. */
  leftTo: LeftTo | null;
}

/** An action as guards' messages name it, e.g. `Tap 'Send'` (`done`: `Tapped 'Send'`). */
export const describeAction = (tool: string, args: Record<string, unknown>, label: string | undefined, mood: 'do' | 'done' = 'do') =>
  actionPhrase(tool, args, label === undefined ? undefined : (nameInLabel(label) ?? label), mood);

/** A `…Said` value for why nobody could answer: its code when it is a known one, else the words as they came. */
function unansweredSaid(reply: Extract<PersonReply, { kind: 'unanswered' }>): string {
  if (reply.reasonSaid) return saidList([reply.reasonSaid]);
  const code = unansweredCode(reply.reason);
  return code ? saidList([{ code, values: {} }]) : reply.reason;
}

/** The end a person's reply calls for: stopped (cancelled), or failed when nobody answered; null to go on. */
export function endFor(reply: PersonReply, unansweredReason: (why: string, whySaid: string) => string | Saying): Ended | null {
  if (reply.kind === 'stop') return { kind: 'ended', status: 'cancelled', reason: STOPPED };
  if (reply.kind === 'unanswered') return { kind: 'ended', status: 'failed', reason: unansweredReason(reply.reason, unansweredSaid(reply)) };
  return null;
}

interface Acted {
  step: number;
  call: ToolCall;
  outcome: StepOutcome;
  before: Scene | null;
}

export class SupervisedActions {
  /** The person allowed every action for the rest of this task. */
  private allowAll = false;
  /** The last recorded action, until the next observation settles it. */
  private last: Acted | null = null;

  constructor(
    private readonly ports: ActionPorts,
    private readonly scope: ActionScope,
  ) {}

  /**
   * Asks the person through the supervisor and waits (no model call meanwhile); the request is an event before and
   * the reply after. A reply that does not fit the request counts as unanswered. Rejects when the signal aborts.
   */
  async ask(step: number, request: PersonRequest): Promise<SupervisorDecision> {
    const { taskId, signal, now } = this.scope;
    const requestId = randomUUID();
    const askedAt = now();
    this.scope.emit({ type: 'person.asked', taskId, at: askedAt, step, requestId, request });
    let decision: SupervisorDecision;
    try {
      decision = await abortable(this.scope.supervisor.ask({ taskId, requestId, step, request }, { signal }), signal);
    } catch (error) {
      if (signal.aborted) throw error;
      const unreached = say('refusal.couldNotReach', { error: failureReasonOf(error) });
      decision = { reply: { kind: 'unanswered', reason: unreached.text, reasonSaid: unreached.said }, by: 'no-one-present' };
    } finally {
      this.scope.waited?.(now() - askedAt);
    }
    const checked = PersonReplySchema.safeParse(decision.reply);
    if (!checked.success || !replyFits(request, checked.data)) {
      const unfit = say('refusal.replyDidNotFit', { kind: request.kind });
      decision = { reply: { kind: 'unanswered', reason: unfit.text, reasonSaid: unfit.said }, by: decision.by };
    }
    this.scope.emit({ type: 'person.answered', taskId, at: now(), step, requestId, reply: decision.reply, by: decision.by });
    return decision;
  }

  /** One action for the phone: permitted (asking the person when the policy says so), executed, recorded. */
  async act(step: number, planned: Pick<PlannedStep, 'tool' | 'args' | 'rationale'>, scene: Scene | null): Promise<ActionResult> {
    const { signal, serial, allowedApps } = this.scope;
    const permitted = await this.permit(step, planned, scene);
    if (permitted !== 'run') {
      if (permitted.kind === 'ended') return permitted;
      // Not a failure of the agent: it hears it and goes on (the loop guard stops it insisting). The time the
      // person took to decide is theirs, not the action's: nothing ran.
      const outcome: StepOutcome = { ok: false, error: DENIED, errorSaid: { code: 'step.denied', values: {} }, attempts: 0, durationMs: 0 };
      this.record(step, planned, outcome, 0);
      return { kind: 'denied', outcome };
    }
    // Timed from here: a person's time to allow it is not the action's.
    const started = performance.now();
    const call: ToolCall = { name: planned.tool, args: planned.args };
    let outcome: StepOutcome;
    try {
      outcome = await abortable(this.ports.executor.execute(call, { serial, scene, signal, ...(allowedApps && { allowedApps }) }), signal);
    } catch (error) {
      if (signal.aborted) return { kind: 'ended', status: 'cancelled', reason: stopReasonOf(signal) };
      outcome = { ok: false, error: failureReasonOf(error), attempts: 0, durationMs: performance.now() - started };
    }
    this.record(step, planned, outcome, performance.now() - started, scene);
    return { kind: 'executed', outcome };
  }

  /** Records a turn's outcome (`step.executed`); `before` is the Scene an executed action was planned on, to settle it against. */
  record(step: number, planned: Pick<PlannedStep, 'tool' | 'args'>, outcome: StepOutcome, executeMs: number, before?: Scene | null): void {
    this.scope.emit({ type: 'step.executed', taskId: this.scope.taskId, at: this.scope.now(), step, outcome, executeMs });
    this.last = before === undefined ? null : { step, call: { name: planned.tool, args: planned.args }, outcome, before };
  }

  /**
   * What the next observation tells about the last action: what it verifies (`step.verified`), and whether it led
   * from an app in scope into one outside it.
   */
  settle(after: Scene | null, screenChanged: boolean | null): Settled {
    const last = this.last;
    this.last = null;
    if (!last) return { verification: null, leftTo: null };
    const verification = verifyAction({ tool: last.call.name, args: last.call.args, outcome: last.outcome, before: last.before, after, screenChanged, tools: this.ports.tools });
    if (verification) this.scope.emit({ type: 'step.verified', taskId: this.scope.taskId, at: this.scope.now(), step: last.step, verification });
    const acted = last.outcome.ok && this.ports.tools.get(last.call.name)?.actsOnPhone;
    const app = acted ? appLeftTo(last.before, after, this.scope.allowedApps) : null;
    const label = last.outcome.target?.label;
    return { verification, leftTo: app ? { app, action: describeAction(last.call.name, last.call.args, label), call: actionCall(last.call.name, last.call.args, label) } : null };
  }

  /**
   * The runtime's own turn `step`: Back out of an app outside the allow-list, as a person would. It is planned with
   * source `runtime` (no policy asks: it only leaves), executed and recorded like any action, so the next look settles
   * it too; a scope guard decision says why. Returns what the planner hears.
   */
  async goBack(step: number, left: LeftTo, scene: Scene | null): Promise<string> {
    const { signal, serial, allowedApps, taskId, now } = this.scope;
    this.scope.emit({ type: 'step.planned', taskId, at: now(), step, tool: GO_BACK.name, args: GO_BACK.args, rationale: null, thinking: null, usage: null, costUsd: null, source: 'runtime', planMs: 0 });
    const started = performance.now();
    let back: StepOutcome;
    try {
      back = await abortable(this.ports.executor.execute(GO_BACK, { serial, scene, signal }), signal);
    } catch (error) {
      if (signal.aborted) throw error;
      back = { ok: false, error: failureReasonOf(error), attempts: 0, durationMs: performance.now() - started };
    }
    this.record(step, { tool: GO_BACK.name, args: GO_BACK.args }, back, performance.now() - started, scene);
    const how = back.ok ? 'went back out of it' : `could not go back out of it (${back.error ?? 'unknown error'})`;
    const message = `${left.action} opened ${left.app}, which is not among this task's allowed apps: the runtime ${how}`;
    const said = back.ok
      ? say('scope.wentBack', { actionCall: left.call, app: left.app }).said
      : say('scope.couldNotGoBack', { actionCall: left.call, app: left.app, error: back.error ?? 'unknown error' }).said;
    this.scope.emit({ type: 'guard.decided', taskId, at: now(), step, guard: 'scope', finding: 'outside-allowed-apps', decision: 'warn', message, said, by: 'runtime' });
    return `Your last action (${left.action}) opened ${left.app}, which is not among this task's allowed apps (${(allowedApps ?? []).join(', ')}); the runtime ${how}. Stay within the allowed apps.`;
  }

  /** Whether the action may run: the sensitive-action policy, then the person when it asks. */
  private async permit(step: number, planned: Pick<PlannedStep, 'tool' | 'args' | 'rationale'>, scene: Scene | null): Promise<'run' | Ended | { kind: 'denied' }> {
    const { taskId, now } = this.scope;
    const verdict = decideAction({ call: { name: planned.tool, args: planned.args }, scene, mode: this.scope.confirmation(), allowedApps: this.scope.allowedApps, tools: this.ports.tools });
    if (verdict.decision === 'allow') return 'run';
    const action = describeAction(planned.tool, planned.args, verdict.target?.label);
    const call = actionCall(planned.tool, planned.args, verdict.target?.label);
    const decided = { type: 'guard.decided' as const, taskId, step };
    if (this.allowAll) {
      this.scope.emit({ ...decided, at: now(), guard: 'policy', finding: 'allowed-for-task', decision: 'allow', message: `${action}: the person allowed every action for the rest of this task`, said: say('policy.allowedForTask', { actionCall: call }).said, by: 'preset' });
      return 'run';
    }
    const guard = verdict.finding === 'outside-allowed-apps' ? 'scope' : 'policy';
    this.scope.emit({ ...decided, at: now(), guard, finding: verdict.finding, decision: 'ask', message: `${action} needs a yes: ${verdict.reasons.join('; ')}`, said: say('policy.needsYes', { actionCall: call, reasonsSaid: saidList(verdict.reasonsSaid) }).said, by: 'policy' });
    let reply: PersonReply;
    try {
      ({ reply } = await this.ask(step, { kind: 'confirmation', tool: planned.tool, args: planned.args, rationale: planned.rationale, reasons: verdict.reasons, reasonsSaid: verdict.reasonsSaid, target: verdict.target }));
    } catch {
      return { kind: 'ended', status: 'cancelled', reason: stopReasonOf(this.scope.signal) };
    }
    // Which action, and that no one could answer: in the reader's language (the action and the reasons by their codes).
    const ended = endFor(reply, (why, whySaid) => ({
      text: `${action} needs a person's yes (${verdict.reasons.join('; ')}) and ${why}`,
      said: { code: 'refusal.noOneAnswered', values: { actionCall: call, reasonsSaid: saidList(verdict.reasonsSaid), whySaid } },
    }));
    if (ended) return ended;
    if (reply.kind === 'deny') return { kind: 'denied' };
    if (reply.kind === 'allow' && reply.scope === 'task') this.allowAll = true;
    return 'run';
  }
}
