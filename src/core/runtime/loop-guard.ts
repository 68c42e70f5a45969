import type { LoopThresholds } from './task-policies';
import { say, type Said } from '../../shared/said';
import { actionCall } from '../../shared/supervision-words';

/**
 * The loop and stall guard: from the turns so far, whether the agent repeats an action that changes nothing or
 * goes back and forth between two screens. Pure; the runner decides what to do with a finding.
 */

/** One executed turn as the guard sees it. */
export interface GuardedTurn {
  /** What identifies the action across turns (tool, arguments, the target's label rather than its per-turn id). */
  actionKey: string;
  /** How the action reads in a message, in the past tense, e.g. `Opened Settings`. */
  actionText: string;
  /** The action as a message carries it (`actionCall`), so a reader in another language gets it in its own words. */
  actionCall?: string;
  /** Whether the screen after it differed from the screen before (null: unknown). */
  screenChanged: boolean | null;
}

export interface LoopFinding {
  kind: 'repeat' | 'alternation';
  /** Looping turns in a row. */
  count: number;
  /** Plain words for the model, the person and the failure reason. */
  description: string;
  /** The description's code, for a window in another language. */
  descriptionSaid: Said;
}

/** The stable key of an action: element ids are renumbered every turn, so the target's label stands for them. */
export function actionKeyOf(tool: string, args: Record<string, unknown>, targetLabel: string | undefined): string {
  const { element_id: elementId, ...rest } = args;
  const keys = Object.keys(rest).sort();
  return `${tool} ${JSON.stringify(rest, keys)} @${targetLabel ?? (typeof elementId === 'string' ? elementId : '')}`;
}

/** Turns at the end of `turns` that repeat the same action with no change on the screen. */
function repeats(turns: readonly GuardedTurn[]): number {
  const last = turns.at(-1);
  if (!last || last.screenChanged !== false) return 0;
  let count = 0;
  for (let i = turns.length - 1; i >= 0 && turns[i]!.actionKey === last.actionKey && turns[i]!.screenChanged === false; i -= 1) count += 1;
  return count;
}

/** Observations at the end of `screens` that return to the screen two before, having left it (A B A B ...). */
function alternations(screens: readonly (string | null)[]): number {
  let count = 0;
  for (let i = screens.length - 1; i >= 2; i -= 1) {
    const [now, before, twoBefore] = [screens[i], screens[i - 1], screens[i - 2]];
    if (now === null || now !== twoBefore || now === before) break;
    count += 1;
  }
  return count;
}

/**
 * The loop the last turns are in, if it is at least `thresholds.warnAfter` long. `turns` are the executed turns
 * since the person last said to go on; `screens` the screen fingerprints observed over the same stretch, oldest
 * first, the current one last.
 */
export function findLoop(turns: readonly GuardedTurn[], screens: readonly (string | null)[], thresholds: LoopThresholds): LoopFinding | null {
  const threshold = Math.min(thresholds.warnAfter, thresholds.stopAfter);
  const repeated = repeats(turns);
  if (repeated >= threshold) {
    const last = turns.at(-1)!;
    const { text, said } = say('loop.repeat', { action: last.actionText, count: repeated, ...(last.actionCall && { actionCall: last.actionCall }) });
    return { kind: 'repeat', count: repeated, description: text, descriptionSaid: said };
  }
  const alternated = alternations(screens);
  if (alternated >= threshold) {
    const [first, then] = turns.slice(-2);
    const { text, said } =
      first && then
        ? say('loop.alternation', {
            turns: alternated + 1,
            first: first.actionText,
            then: then.actionText,
            ...(first.actionCall && { firstCall: first.actionCall }),
            ...(then.actionCall && { thenCall: then.actionCall }),
          })
        : say('loop.alternationUnseen', { turns: alternated + 1 });
    return { kind: 'alternation', count: alternated, description: text, descriptionSaid: said };
  }
  return null;
}

/** What a finding calls for: tell the model, or ask a person (stop when no one can answer). */
export function loopDecision(finding: LoopFinding, thresholds: LoopThresholds): 'warn' | 'ask' {
  return finding.count >= thresholds.stopAfter ? 'ask' : 'warn';
}

/** The prompt's line about a loop: what was repeated, how often, and to try something else. */
export function loopWarning(finding: LoopFinding): string {
  return `Warning from the runtime: you are in a loop (${finding.description}). Doing the same again will not help: try something else (another element, scroll, go back, another way to open it), ask_user if you need the person, or finish_task with success=false if the goal cannot be reached.`;
}

/** What the loop guard needs to know since it last started afresh (a person said to go on, a hand-over, a resume). */
export class LoopWatch {
  private turns: GuardedTurn[] = [];
  /** Screen fingerprints observed, the one before the restart first. */
  private screens: (string | null)[] = [];
  /** The loop count last warned about, so one loop is reported once. */
  private warned = 0;

  /** A turn's action, once recorded: what identifies it and how it reads (its screen change is learned next turn). */
  acted(tool: string, args: Record<string, unknown>, targetLabel: string | undefined, actionText: string): void {
    this.turns.push({ actionKey: actionKeyOf(tool, args, targetLabel), actionText, actionCall: actionCall(tool, args, targetLabel, 'done'), screenChanged: null });
  }

  /** An observation: its fingerprint, and whether the screen changed since the previous one (told to the last action when it came just before). */
  observed(screen: string | null, changed: boolean | null, afterLastAction: boolean): void {
    const last = this.turns.at(-1);
    if (last && afterLastAction) last.screenChanged = changed;
    this.screens.push(screen);
  }

  /** The loop the turns are in and what it calls for; `firstWarning` once per loop. Null when there is none. */
  check(thresholds: LoopThresholds): { finding: LoopFinding; decision: 'warn' | 'ask'; firstWarning: boolean } | null {
    const finding = findLoop(this.turns, this.screens, thresholds);
    if (!finding) {
      this.warned = 0;
      return null;
    }
    const decision = loopDecision(finding, thresholds);
    const firstWarning = decision === 'warn' && this.warned === 0;
    if (decision === 'warn') this.warned = finding.count;
    return { finding, decision, firstWarning };
  }

  restart(): void {
    this.turns = [];
    this.screens = this.screens.slice(-1);
    this.warned = 0;
  }
}
