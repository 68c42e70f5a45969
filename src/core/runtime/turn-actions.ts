import type { Scene } from '../../shared/scene';
import type { StepOutcome } from '../../shared/action';
import { say, saidList } from '../../shared/said';
import { invalidArgumentsSaid } from '../tools/tool';
import type { PersonReply, PersonRequest, PlannedStep, TaskRecord } from '../../shared/task';
import { AskUserArgsSchema, HandOverArgsSchema } from '../tools/person-tools';
import { asksThePerson, toolKind } from '../../shared/tool-vocabulary';
import { describeAction, endFor } from './supervised-action';
import { cancelTask, endTask, finishTask } from './task-finish';
import type { TaskRun, TurnEnd } from './task-run';

/**
 * What a turn does with its planned step: an action for the phone (through the one supervised action), a question or
 * a hand-over to the person, or a flow step recorded as already done; then what the loop guard and the failure count
 * make of its outcome.
 */
export function carryOut(task: TaskRun, turn: number, step: PlannedStep, scene: Scene | null): Promise<TurnEnd> | TurnEnd {
  if (step.source === 'skipped') return skip(task, turn, step);
  if (asksThePerson(step.tool)) return personTool(task, turn, step);
  return act(task, turn, step, scene);
}

/** A flow step whose outcome already holds ("Wi-Fi is already on"): recorded as done, and nothing reaches the phone. */
function skip(task: TaskRun, turn: number, step: PlannedStep): TurnEnd {
  task.actions.record(turn, step, { ok: true, attempts: 0, durationMs: 0 }, 0);
  return null;
}

/**
 * What the loop guard remembers of a recorded turn. A step a person wrote (a flow's, replayed or skipped) is not the
 * model's doing: three written `wait` steps in a row are not a loop, and the watch starts afresh after one.
 */
function remember(task: TaskRun, step: PlannedStep, outcome: StepOutcome): void {
  if (step.source === 'replayed' || step.source === 'skipped') {
    task.loops.restart();
    return;
  }
  const label = outcome.target?.label;
  task.loops.acted(step.tool, step.args, label, describeAction(step.tool, step.args, label, 'done'));
}

/** ask_user / hand_over: the model reaches the person; the reply (or note) is the turn's outcome. */
async function personTool(task: TaskRun, turn: number, step: PlannedStep): Promise<TurnEnd> {
  const asking = toolKind(step.tool) === 'question';
  const args = (asking ? AskUserArgsSchema : HandOverArgsSchema).safeParse(step.args);
  if (!args.success) {
    const outcome: StepOutcome = { ok: false, error: `Invalid arguments for ${step.tool}: ${args.error.issues.map((i) => i.message).join('; ')}.`, errorSaid: invalidArgumentsSaid(step.tool, args.error.issues), attempts: 0, durationMs: 0 };
    task.actions.record(turn, step, outcome, 0);
    remember(task, step, outcome);
    return countFailure(task, outcome);
  }
  const text = 'question' in args.data ? args.data.question : args.data.reason;
  const request: PersonRequest = asking ? { kind: 'question', question: text } : { kind: 'hand-over', reason: text };
  let reply: PersonReply;
  try {
    ({ reply } = await task.actions.ask(turn, request));
  } catch {
    return cancelTask(task);
  }
  const ended = endFor(reply, (why, whySaid) => ({
    text: asking ? `the model asked "${text}" and ${why}` : `the model handed the phone over ("${text}") and ${why}`,
    said: { code: asking ? 'refusal.questionUnanswered' : 'refusal.handOverUnanswered', values: { text, whySaid } },
  }));
  if (ended) return endTask(task, ended);
  const said = reply.kind === 'answer' ? reply.text : reply.kind === 'continue' ? reply.note : undefined;
  // The person's time to answer is not the agent acting: the turn records no act time.
  const outcome: StepOutcome = { ok: true, attempts: 0, durationMs: 0, ...(said && { fromPerson: said }) };
  task.actions.record(turn, step, outcome, 0);
  remember(task, step, outcome);
  task.failuresInARow = 0;
  // After a hand-over the person may have changed anything: the next observation starts afresh.
  if (!asking) task.loops.restart();
  return null;
}

/** Ends the task when too many actions failed in a row. */
function countFailure(task: TaskRun, outcome: StepOutcome): Promise<TaskRecord> | null {
  task.failuresInARow = outcome.ok ? 0 : task.failuresInARow + 1;
  if (task.failuresInARow >= task.runner.maxConsecutiveFailures) {
    return finishTask(task, 'failed', say('stop.failuresInARow', { failures: task.failuresInARow, errorSaid: saidList([outcome.errorSaid ?? { code: 'input.verbatim', values: { text: outcome.error ?? 'unknown error' } }]) }));
  }
  return null;
}

/** An action for the phone, through the one supervised action; a denial is heard by the model, not counted as a failure. */
async function act(task: TaskRun, turn: number, step: PlannedStep, scene: Scene | null): Promise<TurnEnd> {
  const result = await task.actions.act(turn, step, scene);
  if (result.kind === 'ended') return endTask(task, result);
  remember(task, step, result.outcome);
  return result.kind === 'denied' ? null : countFailure(task, result.outcome);
}
