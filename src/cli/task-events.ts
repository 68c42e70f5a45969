// `amc run`'s words for a task's events, turn by turn, as the task runs.
import type { CliIo } from './command';
import type { PlannerInfo, TaskEvent, TaskEventOf } from '../shared/task';
import { actionPhrase } from '../shared/action-words';
import { isFinish } from '../shared/tool-vocabulary';
import { finishedLine, outcomeLine } from './task-lines';
import { plannerWords, stepSourceWords } from '../shared/task-words';
import { ENGLISH, type Words } from '../shared/i18n/translate';
import { saidWords } from '../shared/supervision-words';

const indent = (label: string, text: string) => `    ${label}: ${text.replace(/\s*\n\s*/g, '\n      ')}`;

/** A turn's finish_task (a model's, or a replayed flow's end): the goal reached or not, then the reason as it was given. */
function finishPlanned(event: TaskEventOf<'step.planned'>, source: string, words: Words): string {
  const given = typeof event.args.reason === 'string' && event.args.reason.trim() !== '' ? event.args.reason : null;
  // The app's own reason (a replayed flow's end) in the terminal's language; a model's as it wrote it.
  const reason = given === null ? null : saidWords(given, event.reasonSaid, words);
  const values = { step: event.step, source, finish: actionPhrase(event.tool, event.args, null, 'do', words), reason };
  return words.t(reason === null ? 'cli:run.plannedFinish' : 'cli:run.plannedFinishReason', values);
}

/** One human-readable block per event (turn by turn), as the task runs; `planner` is the one task.started named. */
export function printEvent(event: TaskEvent, io: CliIo, planner: PlannerInfo, words: Words = ENGLISH): void {
  const { t } = words;
  switch (event.type) {
    case 'task.started': {
      const p = event.planner;
      const named =
        p.kind === 'stub' ? t('cli:run.plannerBuiltIn') : p.kind === 'replay' ? plannerWords(p, words) : t('cli:run.plannerAi', { details: [p.provider, p.transport && t(`common:transport.${p.transport}`), p.model].filter(Boolean).join(t('common:listSeparator')) });
      io.out(t('cli:run.started', { taskId: event.taskId, serial: event.serial, planner: named, maxSteps: event.maxSteps }));
      io.out(t('cli:run.goal', { goal: event.goal }));
      return;
    }
    case 'step.observed':
      if (event.sceneError) io.out(t('cli:run.sceneError', { step: event.step, error: event.sceneError }));
      return;
    case 'step.planned': {
      const source = event.source === 'model' ? '' : ` (${stepSourceWords(event.source, words)})`;
      // The call as the record has it (English readers grep it); our own finish_task in words for anyone else.
      io.out(isFinish(event.tool) && words.language !== 'en' ? finishPlanned(event, source, words) : `[${event.step}] ${event.tool} ${JSON.stringify(event.args)}${source}`);
      // A rationale the app wrote (a replayed flow step's) in the terminal's language; the model's as it said it.
      if (event.rationale) io.out(indent(t('cli:run.rationale'), saidWords(event.rationale, event.rationaleSaid, words)));
      if (event.thinking) io.out(indent(t('cli:run.thinking'), event.thinking));
      return;
    }
    case 'step.executed':
      io.out(outcomeLine(event.outcome, words));
      return;
    case 'task.paused':
      io.out(t('cli:run.paused'));
      return;
    case 'task.resumed':
      io.out(t('cli:run.resumed'));
      return;
    case 'task.finished':
      io.out(finishedLine(event, planner, words));
  }
}

