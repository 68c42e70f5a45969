import { PASSING_STEP_STATUSES, type Flow, type FlowStepStatus } from '../../shared/flow';
import { plainReason } from '../../shared/plain-words';
import { outcomeWord } from '../../shared/task-words';
import type { TaskVerdict } from '../../shared/verdict';
import { z } from 'zod';
import { say, SaidSchema, type Said } from '../../shared/said';
import type { Planner } from '../runtime/planner';
import { flowStepKind, type FlowStepResult } from './flow-run-report';
import { stepLabel } from './flow-to-yaml';

/**
 * Follows a flow run and tells, per flow step, how it went. The replay planner says so for each step as soon as it
 * knows (an action once the next look shows its outcome, a check when it held or ran out of time, an answer); the
 * recorder keeps those words and, once the run ended, says the rest: the first step nobody reported on, when the run
 * ended there, carries the run's reason (a refused action, a stop); every later step is `not-run`, and so is a step
 * the run completed without (a model that finished the goal on its own is not the flow passing).
 */

/** How the run ended, as the command knows it: completed, or the reason it did not. */
export type FlowRunEnd = { completed: true } | { completed: false; reason: string; said?: Said };

/** A finished task's end as its flow's steps read it: done, or why not (the task's own reason when it has one). */
export function flowRunEndOf(verdict: TaskVerdict, failureReason: string | null, failureSaid?: Said): FlowRunEnd {
  if (verdict === 'done') return { completed: true };
  return { completed: false, reason: failureReason ?? `the run ended ${outcomeWord(verdict)}`, ...(failureReason && failureSaid && { said: failureSaid }) };
}

/** "Step 3: no 'Wi-Fi' …" is the replay's reason for step 3; the step's own line need not repeat its number. */
const withoutStepNumber = (reason: string, index: number) => reason.replace(new RegExp(`^(\\w+: )?Step ${index + 1}: `), '');

/** The code of the replay's reason for step `index`, without its number (`flowRun.stepFailed` around it). */
function saidWithoutStepNumber(said: Said, index: number): Said {
  if (said.code !== 'flowRun.stepFailed' || said.values.step !== index + 1) return said;
  let list: unknown;
  try {
    list = JSON.parse(String(said.values.reasonSaid));
  } catch {
    return said;
  }
  const inner = z.array(SaidSchema).length(1).safeParse(list);
  return inner.success ? inner.data[0]! : said;
}

const notRunSaying = (code: 'flowRun.notRunEarlier' | 'flowRun.notRunEnded') => {
  const { text, said } = say(code);
  return { status: 'not-run' as const, detail: text, said, durationMs: 0 };
};

interface Reported {
  status: FlowStepStatus;
  detail: string;
  at: number;
  healedOn?: readonly number[];
  said?: Said;
}

export interface FlowRunRecorder {
  /** The run's planner, watched for the reason it fails with. */
  planner(inner: Planner): Planner;
  /** What the replay planner calls with each step's result (ReplayPlannerOptions.onStep). */
  onStep(index: number, status: FlowStepStatus, detail: string, healedOn?: readonly number[], said?: Said): void;
  /** The steps' results once the run has ended. */
  results(end: FlowRunEnd): FlowStepResult[];
  /** The healed steps (by index), each with the turns the model acted on in its place (`amc flow heal`). */
  healed(): ReadonlyMap<number, readonly number[]>;
}

export function createFlowRunRecorder(flow: Flow, now: () => number = Date.now): FlowRunRecorder {
  const reported = new Map<number, Reported>();
  /** Why the planner ended the run (its fail or its finish without success), or the error it threw; and its code. */
  let thrown: string | null = null;
  let thrownSaid: Said | undefined;
  const started = now();
  return {
    planner: (inner) => ({
      info: inner.info,
      accepts: inner.accepts,
      async plan(input, context) {
        try {
          const decision = await inner.plan(input, context);
          if (decision.kind === 'fail' || (decision.kind === 'finish' && !decision.success)) {
            thrown = decision.reason;
            thrownSaid = decision.kind === 'fail' ? decision.said : undefined;
          }
          return decision;
        } catch (error) {
          thrown = error instanceof Error ? error.message : String(error);
          throw error;
        }
      },
    }),
    onStep: (index, status, detail, healedOn, said) => reported.set(index, { status, detail, at: now(), ...(healedOn && { healedOn }), ...(said && { said }) }),
    healed: () => new Map([...reported].flatMap(([index, report]) => (report.healedOn ? [[index, report.healedOn] as const] : []))),
    results: (end) => {
      const reason = end.completed ? null : plainReason(thrown ?? end.reason);
      // The task's own code words the reason where the planner did not end the run itself (no one could answer, a stop).
      const said = end.completed ? undefined : thrown === null ? end.said : thrownSaid;
      return stepResults(flow, reported, reason, started, now(), said);
    },
  };
}

/** Each of the flow's steps in order: as reported, else failed with the run's reason (the first), else not run. */
function stepResults(flow: Flow, reported: ReadonlyMap<number, Reported>, reason: string | null, started: number, ended: number, reasonSaid?: Said): FlowStepResult[] {
  let since = started;
  let stopped = false;
  return flow.steps.map((step, index): FlowStepResult => {
    const line = flow.lines?.[index];
    const lineLabel = line ? say('flowRun.lineLabel', { line, label: stepLabel(step) }) : null;
    const base = { index, kind: flowStepKind(step), ...(lineLabel ? { label: lineLabel.text, labelSaid: lineLabel.said } : { label: stepLabel(step) }) };
    const report = reported.get(index);
    // The steps that always run (onFlowComplete) are reported as they went, after any failure.
    if (stopped && flow.alwaysFrom !== undefined && index >= flow.alwaysFrom) {
      if (!report) return { ...base, ...notRunSaying('flowRun.notRunEnded') };
      const at = report.at;
      const durationMs = Math.max(0, at - since);
      since = at;
      return { ...base, status: report.status, detail: report.detail, ...(report.said && { said: report.said }), durationMs };
    }
    if (stopped || (!report && reason === null)) {
      const notRun = notRunSaying(stopped ? 'flowRun.notRunEarlier' : 'flowRun.notRunEnded');
      stopped = true;
      return { ...base, ...notRun };
    }
    const at = report?.at ?? ended;
    const durationMs = Math.max(0, at - since);
    since = at;
    if (!report) {
      stopped = true;
      return { ...base, status: 'failed', detail: withoutStepNumber(reason!, index), ...(reasonSaid && { said: saidWithoutStepNumber(reasonSaid, index) }), durationMs };
    }
    if (!PASSING_STEP_STATUSES.includes(report.status)) stopped = true;
    return { ...base, status: report.status, detail: report.detail, ...(report.said && { said: report.said }), durationMs };
  });
}
