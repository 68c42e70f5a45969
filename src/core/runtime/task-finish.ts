import type { Verification } from '../../shared/action';
import { say, type Saying } from '../../shared/said';
import type { TaskRecord } from '../../shared/task';
import type { FlowTurn } from '../../shared/flow';
import { actionCount } from '../../shared/turns';
import { claimVerification } from '../../shared/verdict';
import { failureFields, failureOf, stopReasonOf, type TaskEnding } from './cancellation';
import { learnFrom } from './notes/task-notes';
import { flowMarksOf, type Decision } from './planner';
import type { Ended } from './supervised-action';
import type { TaskRun } from './task-run';

/** How a task ends: the phone let go, what it taught learned, and `task.finished` with its totals. */

export async function finishTask(
  task: TaskRun,
  status: 'completed' | 'failed' | 'cancelled',
  failure: TaskEnding,
  result: string | Saying | null = null,
  verification?: Verification,
  /** A flow's marks on the turn that failed without a plan (Decision `fail`). */
  flow?: FlowTurn,
): Promise<TaskRecord> {
  // The device is free (here and for other processes) before anyone hears of the end, so a listener may
  // start the next task at once.
  // A lock that cannot be removed is replaced as stale by this process's next task.
  await task.release().catch(() => undefined);
  task.runner.forget(task.record.id);
  // Before anyone hears of the end: a person who marks the task wrong at once then forgets what it taught.
  if (status === 'completed') await learnFrom({ ...task.record, status, verification: verification ?? null }, task.learning());
  task.emit({
    type: 'task.finished',
    taskId: task.record.id,
    at: task.now(),
    status,
    ...failureFields(failure),
    ...resultFields(result),
    steps: actionCount(task.record),
    usage: task.record.usage,
    costUsd: task.record.costUsd,
    ...(verification && { verification }),
    ...(flow && { flow }),
    durationMs: task.now() - task.startedAt,
  });
  return task.record;
}

/** The result's text, and its code when the planner wrote one (a flow's end). */
const resultFields = (result: string | Saying | null) => (result === null || typeof result === 'string' ? { result } : { result: result.text, resultSaid: result.said });

/** Cancelled with the stop's reason: the task's signal was aborted. */
export function cancelTask(task: TaskRun): Promise<TaskRecord> {
  return finishTask(task, 'cancelled', stopReasonOf(task.signal));
}

/** Ends the task for an exception: failed with `<ErrorName>: <message>`, or cancelled when it came from Stop. */
export function failTask(task: TaskRun, error: unknown): Promise<TaskRecord> {
  if (task.signal.aborted) return cancelTask(task);
  return finishTask(task, 'failed', failureOf(error), null, undefined, flowMarksOf(error));
}

/** Ends the task as a person's reply (or nobody's) decided. */
export function endTask(task: TaskRun, ended: Ended): Promise<TaskRecord> {
  return finishTask(task, ended.status, ended.reason);
}

/**
 * The planner says the goal is reached. A model's success claim when nothing was done completes the task
 * marked "not verified" (the runtime cannot confirm it), and the guard's decision is an event.
 */
export function completeTask(task: TaskRun, turn: number, decision: Extract<Decision, { kind: 'finish'; success: true }>): Promise<TaskRecord> {
  const result = decision.reason !== null && decision.said ? { text: decision.reason, said: decision.said } : decision.reason;
  // A claim a planner made (a model's finish_task, a flow's end) is checked; a planner without one (the stub) claims nothing.
  const against = decision.call ? claimVerification(task.record, decision.reason) : null;
  if (!against) return finishTask(task, 'completed', null, result);
  const noAction = against.check === 'action-taken';
  const message = noAction ? say('guard.successWithoutAction', { factCode: 'verify.noAction' }) : say('guard.claimNotVerified', { fact: against.fact });
  const finding = noAction ? 'no-action-taken' : 'claim-not-verified';
  task.guardDecided(turn, { guard: 'completion', finding, decision: 'allow', message: message.text, said: message.said, by: 'runtime' });
  return finishTask(task, 'completed', null, result, against);
}
