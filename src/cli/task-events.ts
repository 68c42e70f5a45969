// `amc run`'s words for a task's events, turn by turn, as the task runs.
import type { CliIo } from './command';
import type { PlannerInfo, TaskEvent } from '../shared/task';
import { finishedLine, outcomeLine } from './task-lines';
import { plannerWords, stepSourceWords } from '../shared/task-words';

const indent = (label: string, text: string) => `    ${label}: ${text.replace(/\s*\n\s*/g, '\n      ')}`;

/** One human-readable block per event (turn by turn), as the task runs; `planner` is the one task.started named. */
export function printEvent(event: TaskEvent, io: CliIo, planner: PlannerInfo): void {
  switch (event.type) {
    case 'task.started': {
      const p = event.planner;
      const named = p.kind === 'stub' ? 'built-in (no AI)' : p.kind === 'replay' ? plannerWords(p) : `ai (${[p.provider, p.transport, p.model].filter(Boolean).join(', ')})`;
      io.out(`Task ${event.taskId} on ${event.serial} — planner: ${named}, at most ${event.maxSteps} turns`);
      io.out(`Goal: ${event.goal}`);
      return;
    }
    case 'step.observed':
      if (event.sceneError) io.out(`[${event.step}] screen could not be read: ${event.sceneError}`);
      return;
    case 'step.planned': {
      const source = event.source === 'model' ? '' : ` (${stepSourceWords(event.source)})`;
      io.out(`[${event.step}] ${event.tool} ${JSON.stringify(event.args)}${source}`);
      if (event.rationale) io.out(indent('rationale', event.rationale));
      if (event.thinking) io.out(indent('thinking', event.thinking));
      return;
    }
    case 'step.executed':
      io.out(outcomeLine(event.outcome));
      return;
    case 'task.paused':
      io.out('Paused.');
      return;
    case 'task.resumed':
      io.out('Resumed.');
      return;
    case 'task.finished':
      io.out(finishedLine(event, planner));
  }
}
