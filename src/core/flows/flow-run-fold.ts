import { PASSING_STEP_STATUSES, type Flow, type FlowStepMark, type FlowTurn } from '../../shared/flow';
import { failureWordsOf } from '../../shared/task-failure';
import { say, type Said } from '../../shared/said';
import type { TaskEvent } from '../../shared/task';
import { outcomeWord } from '../../shared/task-words';
import { verdictOfEvents } from '../../shared/verdict';
import { flowStepKind, type FlowStepResult } from './flow-run-report';
import { stepLabel } from './flow-to-yaml';

/**
 * A flow run's report, step by step, as a fold over its task's events. The replay planner marks each turn it plans
 * with the flow step the turn carries out and the steps whose result it knew then (a check that held, the action
 * before it that verified, a step that failed); a failure without a plan of its own is marked on `task.finished`. The
 * fold keeps each step's last mark; the run's end gives the step it ended at (the step its last flow turn carried
 * out, when that turn's result never came; else the first step without one) the run's reason (a stop, a refusal, an
 * error); every later step is `not-run`, and so is a step the run completed without. A model's turns after a step
 * failed carry no flow step: what the model did is never a flow step passing.
 */

/** How the run ended: completed, or the reason it did not (with its code, when the runtime worded it). */
type FlowRunEnd = { completed: true } | { completed: false; reason: string; said?: Said };

const notRun = (code: 'flowRun.notRunEarlier' | 'flowRun.notRunEnded') => {
  const { text, said } = say(code);
  return { status: 'not-run' as const, detail: text, said, durationMs: 0 };
};

interface Reported extends FlowStepMark {
  at: number;
}

export interface FlowRunFold {
  steps: FlowStepResult[];
  /** The healed steps (by index), each with the turns the model acted on in its place (`amc flow heal`). */
  healed: ReadonlyMap<number, readonly number[]>;
}

/** Whether the run's task was done (and verified): a flow run passes only then. */
export function flowRunEnd(events: readonly TaskEvent[], unfinished: string): FlowRunEnd {
  const verdict = verdictOfEvents(events);
  if (verdict === 'done') return { completed: true };
  const finished = events.findLast((event) => event.type === 'task.finished');
  if (!verdict || !finished) return { completed: false, reason: unfinished };
  const { failureReason, failureSaid } = finished;
  return { completed: false, reason: failureWordsOf(finished) ?? `the run ended ${outcomeWord(verdict)}`, ...(failureReason && failureSaid && { said: failureSaid }) };
}

/**
 * The report of a flow run from its task's events; `unfinished` is the reason when the task never started or never
 * finished (a phone that was not connected, a set-up that failed).
 */
export function foldFlowRun(flow: Flow, events: readonly TaskEvent[], unfinished = 'the run did not start'): FlowRunFold {
  const reported = new Map<number, Reported>();
  let current: number | null = null;
  const hear = (turn: FlowTurn | undefined, at: number) => {
    for (const mark of turn?.settled ?? []) reported.set(mark.index, { ...mark, at });
    if (turn?.step) current = turn.step.index;
  };
  for (const event of events) {
    if (event.type === 'step.planned' || event.type === 'task.finished') hear(event.flow, event.at);
  }
  const started = events[0]?.at ?? 0;
  const ended = events.at(-1)?.at ?? started;
  const end = flowRunEnd(events, unfinished);
  const endsAt = current !== null && !reported.has(current) ? current : null;
  const healed = new Map([...reported].flatMap(([index, report]) => (report.healedOn ? [[index, report.healedOn] as const] : [])));
  return { steps: stepResults(flow, reported, end, endsAt, started, ended), healed };
}

/** Each of the flow's steps in order: as reported, else failed with the run's reason (where it ended), else not run. */
function stepResults(flow: Flow, reported: ReadonlyMap<number, Reported>, end: FlowRunEnd, endsAt: number | null, started: number, ended: number): FlowStepResult[] {
  let since = started;
  let stopped = false;
  return flow.steps.map((step, index): FlowStepResult => {
    const line = flow.lines?.[index];
    const lineLabel = line ? say('flowRun.lineLabel', { line, label: stepLabel(step) }) : null;
    const base = { index, kind: flowStepKind(step), ...(lineLabel ? { label: lineLabel.text, labelSaid: lineLabel.said } : { label: stepLabel(step) }) };
    const report = reported.get(index);
    // The steps that always run (onFlowComplete) are reported as they went, after any failure.
    if (stopped && flow.alwaysFrom !== undefined && index >= flow.alwaysFrom) {
      if (!report) return { ...base, ...notRun('flowRun.notRunEnded') };
      const durationMs = Math.max(0, report.at - since);
      since = report.at;
      return { ...base, status: report.status, detail: report.detail, ...(report.said && { said: report.said }), durationMs };
    }
    const endsHere = !report && !end.completed && (endsAt === null || endsAt === index);
    if (stopped || (!report && !endsHere)) {
      const notRunLine = notRun(stopped ? 'flowRun.notRunEarlier' : 'flowRun.notRunEnded');
      stopped = true;
      return { ...base, ...notRunLine };
    }
    const at = report?.at ?? ended;
    const durationMs = Math.max(0, at - since);
    since = at;
    if (!report) {
      stopped = true;
      const { reason, said } = end as Extract<FlowRunEnd, { completed: false }>;
      return { ...base, status: 'failed', detail: reason, ...(said && { said }), durationMs };
    }
    if (!PASSING_STEP_STATUSES.includes(report.status)) stopped = true;
    return { ...base, status: report.status, detail: report.detail, ...(report.said && { said: report.said }), durationMs };
  });
}
