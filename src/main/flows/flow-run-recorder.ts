import type { StepOutcome } from '../../shared/action';
import type { Flow, StepSource } from '../../shared/flow';
import { plainReason } from '../../shared/plain-words';
import type { FinishedOutcome } from '../../shared/task-words';
import type { FlowChecks } from '../replay/flow-checks';
import type { Planner, PlannerDecision } from '../runtime/planner';
import { FINISH_TASK } from '../runtime/prompt';
import { flowStepKind, type FlowStepResult } from './flow-run-report';
import { stepLabel } from './flow-to-yaml';

/**
 * Follows a flow run and tells, per flow step, whether it passed. It sees the run through the planner it wraps: the
 * steps the replay plans (replayed, skipped, or the model's once the screen diverged), the outcome of each in the
 * history the runner gives the next turn, the reason a failing planner throws, and every check (asserts and
 * questions pass through this recorder's FlowChecks). A step the run never reached is `not-run`; the first one,
 * when the run ended there, carries the run's reason.
 */

interface CheckEntry {
  passed: boolean;
  detail: string;
  at: number;
}

/** One turn of the run: its plan's source and words, and (once the next turn's history has it) its outcome. */
interface TurnEvidence {
  source: StepSource;
  rationale: string | null;
  outcome?: StepOutcome;
  at: number;
}

/** How the run ended, as the command knows it: completed, or the reason it did not. */
export type FlowRunEnd = { completed: true } | { completed: false; reason: string };

/** A finished task's end as its flow's steps read it: done, or why not (the task's own reason when it has one). */
export function flowRunEndOf(outcome: FinishedOutcome, failureReason: string | null): FlowRunEnd {
  if (outcome === 'done') return { completed: true };
  return { completed: false, reason: failureReason ?? (outcome === 'stopped' ? 'the run was stopped' : 'the run did not finish') };
}

const FLOW_SOURCES: ReadonlySet<StepSource> = new Set(['replayed', 'skipped', 'cache']);

/** "Step 3: no 'Wi-Fi' …" is the replay's reason for step 3; the step's own line need not repeat its number. */
const withoutStepNumber = (reason: string, index: number) => reason.replace(new RegExp(`^(\\w+: )?Step ${index + 1}: `), '');

export interface FlowRunRecorder {
  /** The run's planner, watched. */
  planner(inner: Planner): Planner;
  /** The checks the run uses, with every result kept for the report. */
  checks(inner: FlowChecks): FlowChecks;
  /** The steps' results once the run has ended. */
  results(end: FlowRunEnd): FlowStepResult[];
}

export function createFlowRunRecorder(flow: Flow, now: () => number = Date.now): FlowRunRecorder {
  const turns = new Map<number, TurnEvidence>();
  const checks: CheckEntry[] = [];
  let thrown: string | null = null;
  const started = now();
  const keep = (passed: boolean, detail: string) => checks.push({ passed, detail, at: now() });
  return {
    planner: (inner) => ({
      info: inner.info,
      accepts: inner.accepts,
      goalReached: (input) => inner.goalReached(input),
      async plan(input, context) {
        for (const turn of input.history ?? []) {
          const seen = turns.get(turn.step);
          if (seen) seen.outcome = turn.outcome;
        }
        const onDecision = (decision: PlannerDecision) => {
          if (decision.tool !== FINISH_TASK) turns.set(input.step, { source: decision.source, rationale: decision.rationale, at: now() });
          context.onDecision(decision);
        };
        try {
          const steps = await inner.plan(input, { ...context, onDecision });
          // A replayed step is not reported as a decision (no model made it): its plan is what the turn returns.
          for (const step of steps) if (!turns.has(input.step)) turns.set(input.step, { source: step.source, rationale: step.rationale, at: now() });
          return steps;
        } catch (error) {
          thrown = error instanceof Error ? error.message : String(error);
          throw error;
        }
      },
    }),
    checks: (inner) => ({
      assert(scene, assertion) {
        const result = inner.assert(scene, assertion);
        keep(result.holds, result.holds ? result.fact : result.reason);
        return result;
      },
      async ask(scene, ask, signal) {
        try {
          const answer = await inner.ask(scene, ask, signal);
          if (answer.kind === 'yes-no') keep(answer.yes, `${answer.yes ? 'yes' : 'no'}: ${answer.why}`);
          else keep(true, ask.into ? `${ask.into} = "${answer.value}"` : `"${answer.value}"`);
          return answer;
        } catch (error) {
          keep(false, plainReason(error instanceof Error ? error.message : String(error)));
          throw error;
        }
      },
    }),
    results: (end) => {
      const ordered = [...turns.entries()].sort(([a], [b]) => a - b).map(([, turn]) => turn);
      const reason = end.completed ? null : plainReason(thrown ?? end.reason);
      return stepResults(flow, ordered, checks, reason, started, now());
    },
  };
}

/** Walks the flow's steps in order, matching each to the run's next trace of it. `reason`: why the run did not complete. */
function stepResults(flow: Flow, turns: readonly TurnEvidence[], checks: readonly CheckEntry[], reason: string | null, started: number, ended: number): FlowStepResult[] {
  let action = 0;
  let check = 0;
  let since = started;
  let stopped = false;
  return flow.steps.map((step, index): FlowStepResult => {
    const base = { index, kind: flowStepKind(step), label: stepLabel(step) };
    const result = (status: FlowStepResult['status'], detail: string, at: number) => {
      const durationMs = Math.max(0, at - since);
      since = at;
      if (status !== 'passed') stopped = true;
      return { ...base, status, detail, durationMs };
    };
    if (stopped) return { ...base, status: 'not-run', detail: 'not run: an earlier step did not pass', durationMs: 0 };
    if ('assert' in step || 'ask_ai' in step) {
      const entry = checks[check];
      if (entry) {
        check += 1;
        return result(entry.passed ? 'passed' : 'failed', entry.detail, entry.at);
      }
    } else if ('tool' in step) {
      const evidence = actionEvidence(turns[action]);
      if (evidence) {
        action = evidence.source === 'model' ? turns.length : action + 1;
        return result(evidence.status, evidence.detail, evidence.at);
      }
    } else {
      // A sub-goal is the model's turns up to the flow's next replayed step: it passed when the run went past it.
      const next = turns.findIndex((turn, position) => position >= action && FLOW_SOURCES.has(turn.source));
      const wentOn = next >= 0 || check < checks.length || reason === null;
      if (wentOn) {
        action = next >= 0 ? next : turns.length;
        return result('passed', 'the model reached this sub-goal', next >= 0 ? turns[next]!.at : ended);
      }
    }
    if (reason === null) return result('passed', 'done', ended);
    return result('failed', withoutStepNumber(reason, index), ended);
  });
}

/** What the run shows of a flow action: its replayed or skipped turn and how it went, or the model taking over. */
function actionEvidence(turn: TurnEvidence | undefined): { status: 'passed' | 'failed'; detail: string; at: number; source: StepSource } | undefined {
  if (!turn) return undefined;
  const { source, at } = turn;
  if (!FLOW_SOURCES.has(source)) return { status: 'failed', detail: 'the screen differed from the flow here, so the model took over the rest of the goal', at, source };
  if (source === 'skipped') return { status: 'passed', detail: turn.rationale ?? 'skipped: already done', at, source };
  const outcome = turn.outcome;
  if (!outcome) return undefined;
  if (!outcome.ok) return { status: 'failed', detail: outcome.error ?? 'the action failed', at, source };
  if (outcome.verification?.status === 'not-verified') return { status: 'failed', detail: outcome.verification.fact, at, source };
  return { status: 'passed', detail: outcome.verification?.fact ?? 'done', at, source };
}
