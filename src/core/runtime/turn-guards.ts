import type { TaskRecord } from '../../shared/task';
import { turnCount } from '../../shared/turns';
import { budgetExceeded } from './budgets';
import { loopWarning } from './loop-guard';
import { saidList } from '../../shared/said';
import { endFor } from './supervised-action';
import { endTask, finishTask } from './task-finish';
import type { TaskRun, TurnEnd } from './task-run';

/** What stands between turns: a pause, the budgets, the loop guard. Each may end the task. */

/** Between turns: holds while paused; returns at once when stopped (the caller ends the task). */
export async function holdWhilePaused(task: TaskRun): Promise<void> {
  const { signal } = task;
  if (!task.paused || signal.aborted) return;
  const heldAt = task.now();
  task.emit({ type: 'task.paused', taskId: task.record.id, at: heldAt, step: task.turn });
  while (task.paused && !signal.aborted) {
    await new Promise<void>((resolve) => (task.wake = resolve));
    task.wake = null;
  }
  task.waitedMs += task.now() - heldAt;
  if (signal.aborted) return;
  const note = task.resumeNote;
  task.resumeNote = undefined;
  task.emit({ type: 'task.resumed', taskId: task.record.id, at: task.now(), step: task.turn, ...(note && { note }) });
  if (note) task.notices.push(`The person paused the task, may have used the phone, and resumed it saying: ${JSON.stringify(note)}`);
  // The person may have changed anything: loops and screen comparisons start afresh.
  task.loops.restart();
}

/** Ends the task (no further model call) when a budget is used up; the turns counted are those before the one `underway`. */
export function checkBudgets(task: TaskRun, underway = false): Promise<TaskRecord> | null {
  const { record } = task;
  const lastCall = record.steps.findLast((step) => step.planned?.usage)?.planned?.usage ?? null;
  const exceeded = budgetExceeded(
    { turns: turnCount(record) - (underway ? 1 : 0), usage: record.usage, lastCall, costUsd: record.costUsd, agentMs: task.now() - task.startedAt - task.waitedMs },
    record.maxSteps,
    task.policies,
  );
  if (!exceeded) return null;
  task.guardDecided(task.turn, { guard: 'budget', finding: exceeded.finding, decision: 'stop', message: exceeded.reason.text, said: exceeded.reason.said, by: 'runtime' });
  return finishTask(task, 'failed', exceeded.reason);
}

/**
 * The loop guard after an observation: warns the model (once per loop) or, when the loop goes on, asks the
 * person; ends the task when the person stops it or nobody can answer.
 */
export async function guardLoops(task: TaskRun, step: number): Promise<TurnEnd> {
  const loop = task.loops.check(task.policies.loop);
  if (!loop) return null;
  const { finding } = loop;
  if (loop.decision === 'warn') {
    if (loop.firstWarning) task.guardDecided(step, { guard: 'loop', finding: finding.kind, decision: 'warn', message: finding.description, said: finding.descriptionSaid, by: 'runtime' });
    task.notices.push(loopWarning(finding));
    return null;
  }
  task.guardDecided(step, { guard: 'loop', finding: finding.kind, decision: 'ask', message: finding.description, said: finding.descriptionSaid, by: 'runtime' });
  const { reply } = await task.actions.ask(step, { kind: 'loop', description: finding.description, descriptionSaid: finding.descriptionSaid });
  const ended = endFor(reply, (why, whySaid) => ({
    text: `stopped a loop: ${finding.description}; ${why}`,
    said: { code: 'loop.stopped', values: { descriptionSaid: saidList([finding.descriptionSaid]), whySaid } },
  }));
  if (ended) return endTask(task, ended);
  task.loops.restart();
  if (reply.kind === 'continue' && reply.note) task.notices.push(`The person saw you looping and said: ${JSON.stringify(reply.note)}`);
  return null;
}
