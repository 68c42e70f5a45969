import type { TaskRecord } from '../../shared/task';
import type { TurnSummary } from './planner';
import { asData, withoutTags } from './prompt-data';

/**
 * The planner's memory of previous turns, compact and bounded: the last few turns in full (rationale,
 * action, outcome, whether the screen changed), older ones folded into one short line each, the folded part
 * capped in characters (oldest dropped first). The request size therefore stops growing after a few turns.
 */
export interface HistoryLimits {
  /** Turns shown in full. */
  recentTurns: number;
  /** Longest rationale kept per recent turn. */
  rationaleChars: number;
  /** Longest argument JSON kept per turn. */
  argsChars: number;
  /** Cap of the folded older turns, all lines together. */
  olderChars: number;
}

export const DEFAULT_HISTORY_LIMITS: HistoryLimits = { recentTurns: 5, rationaleChars: 240, argsChars: 160, olderChars: 800 };

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * Text the runtime did not write itself (a label from the screen, a check's finding that quotes one, an error, the
 * model's or the person's words) as one JSON string, escaped like the Scene: a `"` in it cannot end the quote, so
 * nothing on the phone can read like the runtime's own words (`ok; verified: done`).
 */
function quoted(text: string, max: number): string {
  return asData(clip(text, max));
}

function outcomeText(turn: TurnSummary, max: number): string {
  const { ok, error, verification, fromPerson } = turn.outcome;
  const result = ok ? 'ok' : `FAILED: ${quoted(error ?? 'unknown error', max)}`;
  const checked = verification ? `; ${verification.status === 'verified' ? 'verified' : 'NOT verified'}: ${quoted(verification.fact, max)}` : '';
  const person = fromPerson ? `; the person said: ${quoted(fromPerson, max)}` : '';
  return `${result}${checked}${person}`;
}

function changeText(turn: TurnSummary): string {
  if (turn.screenChanged === null) return 'screen change unknown';
  return turn.screenChanged ? 'screen changed' : 'screen did NOT change';
}

function actionText(turn: TurnSummary, limits: HistoryLimits): string {
  // `screen:` marks the label as the phone's text, not the runtime's.
  const label = turn.outcome.target?.label ? ` on screen:${quoted(turn.outcome.target.label, 60)}` : '';
  return `${turn.tool} ${withoutTags(clip(JSON.stringify(turn.args), limits.argsChars))}${label}`;
}

/** One line for an older turn: action, outcome, change. */
function foldedLine(turn: TurnSummary, limits: HistoryLimits): string {
  return clip(`#${turn.step} ${actionText(turn, limits)} -> ${outcomeText(turn, 60)}; ${changeText(turn)}`, 150);
}

function fullEntry(turn: TurnSummary, limits: HistoryLimits): string {
  const why = turn.byRuntime
    ? "(the runtime's own step, not yours: Back out of an app outside the allowed apps)"
    : turn.rationale
      ? quoted(turn.rationale, limits.rationaleChars)
      : '(no rationale given)';
  return `#${turn.step} ${actionText(turn, limits)} -> ${outcomeText(turn, 200)}; ${changeText(turn)}\n   why: ${why}`;
}

/** The turns of a task that had an outcome, as the planner remembers them (read from the task's record). */
export function turnsOf(record: TaskRecord): TurnSummary[] {
  return record.steps.flatMap((turn) =>
    turn.planned && turn.outcome
      ? [
          {
            step: turn.step,
            tool: turn.planned.tool,
            args: turn.planned.args,
            rationale: turn.planned.rationale,
            outcome: turn.outcome,
            screenChanged: turn.screenChanged,
            ...(turn.planned.source === 'runtime' && { byRuntime: true }),
          },
        ]
      : [],
  );
}

/** The history section of the prompt, ending with the reflection cue about the previous step. */
export function renderHistory(history: readonly TurnSummary[], limits: HistoryLimits = DEFAULT_HISTORY_LIMITS): string {
  if (history.length === 0) return 'History: none yet, this is the first turn.';
  const recent = history.slice(-limits.recentTurns);
  const older = history.slice(0, history.length - recent.length);
  const lines: string[] = [];
  if (older.length) {
    const folded: string[] = [];
    let used = 0;
    for (let i = older.length - 1; i >= 0; i -= 1) {
      const line = foldedLine(older[i]!, limits);
      if (used + line.length + 1 > limits.olderChars) break;
      folded.unshift(line);
      used += line.length + 1;
    }
    const omitted = older.length - folded.length;
    lines.push('Earlier turns (one line each):');
    if (omitted) lines.push(`(${omitted} earlier turn${omitted === 1 ? '' : 's'} not shown)`);
    lines.push(...folded);
  }
  lines.push('Recent turns:', ...recent.map((turn) => fullEntry(turn, limits)));
  // The model reflects on its own last action; the runtime's Back after it is told in its own entry and notice.
  const last = history.findLast((turn) => !turn.byRuntime) ?? history.at(-1)!;
  lines.push(
    '',
    `Reflect first: did the previous action (#${last.step} ${last.tool}) do what you intended? ` +
      `It ${last.outcome.ok ? 'ran without error' : 'failed'} and the ${changeText(last)}.`,
  );
  return lines.join('\n');
}
