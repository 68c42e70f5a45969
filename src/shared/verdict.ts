import { sentToPhone, type Verification } from './action';
import type { StepSource } from './flow';
import { isAction } from './turns';
import { labelParts, type Scene } from './scene';
import { say, type Said, type SaidCode } from './said';
import { applyTaskEventInPlace, newTaskRecord, type PlannerInfo, type StepRecord, type TaskEvent, type TaskRecord, type TaskStatus } from './task';

/**
 * How a task ended, decided in one place: every reader (the timeline's result card, History, the HTML report, the
 * CLI's summary line and exit code, flow step lines and JUnit, the fleet, schedules, eval, MCP) shows this verdict
 * and nothing else. It is a fold over the task's events beside the reducer (`applyTaskEvent`): the runtime judges a
 * success claim here when it finishes (`claimVerification`, kept in `task.finished`), and `taskVerdict` reads the
 * end from what that event and `task.started` carry, so a reader holding only the first and last line agrees with
 * one holding every turn.
 */

/**
 * - `done`: the outcome was verified on the screen, or the goal was a question answered from it;
 * - `done-not-verified`: success was claimed, and the screen does not bear it out (no action taken, no answer read
 *   from the screen, or the last action's check did not hold);
 * - `failed`, `stopped` (by a person or an answer given in advance), `looked-only` (the built-in planner acts on
 *   nothing), `interrupted` (the app or the CLI closed under the task, or it never finished).
 */
export const TASK_VERDICTS = ['done', 'done-not-verified', 'failed', 'stopped', 'looked-only', 'interrupted'] as const;
export type TaskVerdict = (typeof TASK_VERDICTS)[number];

/** The verdicts a script may count as a pass: only `done`. */
export const isPass = (verdict: TaskVerdict): boolean => verdict === 'done';

/**
 * The codes of the reasons a task carries when nobody chose to end it: the app (or the CLI, or a fleet worker) closed
 * while it ran, or its file was never finished (the process died).
 */
export const INTERRUPTED_CODES: readonly string[] = ['stop.appClosed', 'stop.neverFinished'] satisfies SaidCode[];

/** What the verdict reads of a task: what `task.started` and `task.finished` carry. */
export interface VerdictInput {
  status: TaskStatus;
  planner: Pick<PlannerInfo, 'kind'>;
  verification?: Verification | null | undefined;
  failureSaid?: Said | null | undefined;
}

/** A finished task's verdict; null while it has not finished. */
export function taskVerdict(task: VerdictInput): TaskVerdict | null {
  switch (task.status) {
    case 'pending':
    case 'running':
      return null;
    case 'completed':
      if (task.planner.kind === 'stub') return 'looked-only';
      return task.verification?.status === 'not-verified' ? 'done-not-verified' : 'done';
    case 'failed':
    case 'cancelled':
      if (task.failureSaid && INTERRUPTED_CODES.includes(task.failureSaid.code)) return 'interrupted';
      return task.status === 'failed' ? 'failed' : 'stopped';
  }
}

/** A finished task's verdict (throws for one still running: a reader that needs an end must wait for it). */
export function finishedVerdict(task: VerdictInput): TaskVerdict {
  const verdict = taskVerdict(task);
  if (!verdict) throw new Error(`the task has not finished yet (${task.status})`);
  return verdict;
}

/** The verdict of a task's events, folded as storage and the window fold them. */
export function verdictOfEvents(events: readonly TaskEvent[]): TaskVerdict | null {
  const first = events[0];
  if (first?.type !== 'task.started') return null;
  const record = newTaskRecord({ id: first.taskId, goal: first.goal, serial: first.serial, planner: first.planner, maxSteps: first.maxSteps, createdAt: first.at });
  for (const event of events) applyTaskEventInPlace(record, event);
  return taskVerdict(record);
}

/**
 * An action is a turn that did something on the phone: a question, a hand-over, a denied action and a wait are not
 * (neither is the model's finish). A flow step skipped because its outcome already held counts: the outcome was
 * checked on the screen.
 */
export function actedOnPhone(step: Pick<StepRecord, 'planned' | 'outcome'>): boolean {
  if (!isAction(step) || !step.outcome) return false;
  return sentToPhone(step.outcome) || step.planned?.source === 'skipped';
}

/** How a goal that asks something begins ("What…", "Is Wi-Fi on", "How many…", "Tell me…"). */
const QUESTION_START =
  /^(what|which|who|whom|whose|when|where|why|how|is|are|am|was|were|do|does|did|can|could|will|would|should|has|have|had|tell me|find out|look up|check whether|check if)\b/i;
/** The same in Chinese: a question word anywhere, or a question particle at the end. */
const QUESTION_ZH = /什么|哪|几|多少|谁|是否|有没有|[吗呢][。.?？]?\s*$/u;

/**
 * Whether a goal asks something about the phone (its answer is the run's result) rather than asks for something to be
 * done: only such a goal may be done without an action, its answer read from the screen, and only its answer is kept
 * in a flow and said again by a replay.
 */
export function isQuestionGoal(goal: string): boolean {
  const text = goal.trim();
  return /[?？]$/.test(text) || QUESTION_START.test(text) || QUESTION_ZH.test(text);
}

const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** `part` standing whole in `text`: "14" in "Android 14", not in "140". */
const standsIn = (part: string, text: string) => new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(part)}($|[^\\p{L}\\p{N}])`, 'iu').test(text);

/** Whether `answer` repeats words the screen shows (a label part of two characters or more, standing whole in it). */
export function answerReadFrom(scene: Scene | null, answer: string | null): boolean {
  if (!scene || !answer?.trim()) return false;
  return scene.elements.some((element) =>
    [...(element.text ? labelParts(element.text) : []), element.desc ?? ''].some((part) => part.trim().length >= 2 && standsIn(part.trim(), answer)),
  );
}

/** The steps the model planned: on its own, or fixing a replay where the screen differed. */
const MODELS_OWN: readonly StepSource[] = ['model', 'fixed'];

/**
 * The runtime's check of a model's success claim (`result`: its closing words), from the task's turns (the last one
 * holds the claim): not verified when no action was taken (a question answered from the screen aside) or when the last action's own check did not
 * hold. Null when there is nothing against the claim, or when the claim is not the model's (a replay's end is
 * vouched for by the flow's own checks, step by step).
 */
export function claimVerification(record: Pick<TaskRecord, 'goal' | 'steps'>, result: string | null): Verification | null {
  const claim = record.steps.at(-1);
  if (!claim?.planned || !MODELS_OWN.includes(claim.planned.source)) return null;
  // The agent's own actions: the runtime's Back out of an app outside the allowed apps is not what the claim rests on.
  const acted = record.steps.filter((step) => actedOnPhone(step) && step.planned?.source !== 'runtime');
  const answered = isQuestionGoal(record.goal) && answerReadFrom(claim.scene, result);
  if (answered) return null;
  if (acted.length === 0) {
    const fact = say('verify.noAction');
    return { status: 'not-verified', check: 'action-taken', fact: fact.text, said: fact.said };
  }
  const last = acted.at(-1)!.outcome!.verification;
  return last?.status === 'not-verified' ? last : null;
}
