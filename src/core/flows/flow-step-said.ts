import type { Verification } from '../../shared/action';
import type { StepCondition } from '../../shared/flow';
import { say, saidList, type SaidCode, type SaidValues, type Saying } from '../../shared/said';
import { sayActions } from '../../shared/supervision-words';
import type { Frame } from './flow-cursor';
import type { CheckResult } from './flow-checks-port';

/**
 * A replay's words for people, by code (the `flowRun` group of the `said` catalog): what a step found, why it failed,
 * why it was taken. Each is a Saying, its English text (the records and the model read it) with its code, worded in
 * the reader's language where a person reads it (the terminal, the window, a report).
 */

/** Why a step fails or what it found: the one shape the replay passes its reasons in. */
export const isReason = (outcome: unknown): outcome is Saying => typeof outcome === 'object' && outcome !== null && 'said' in outcome && 'text' in outcome;

/** A message quoting other messages as its `…Said` values. */
export const sayAbout = (code: SaidCode, values: SaidValues, quoted: Record<string, Saying | readonly Saying[]>): Saying =>
  sayActions(code, { ...values, ...Object.fromEntries(Object.entries(quoted).map(([name, about]) => [name, saidList((Array.isArray(about) ? about : [about]).map((one: Saying) => one.said))])) });

/** Words that came without a code (the model's, an error's, a value): quoted as they are. */
export const verbatim = (text: string): Saying => say('flowFile.verbatim', { text });

/** "Step 3: …": a step's reason as the run's. */
export const stepFailed = (index: number, reason: Saying): Saying => sayAbout('flowRun.stepFailed', { step: index + 1 }, { reasonSaid: reason });

/** A reason, with how long the step waited for the screen when it did. */
export const waited = (reason: Saying, waitedMs: number): Saying =>
  waitedMs > 0 ? sayAbout('flowRun.waited', { seconds: (waitedMs / 1000).toFixed(1) }, { reasonSaid: reason }) : reason;

/** What a check found or missed, with its code (a check without one is quoted as it is). */
export const checkedOn = (checked: CheckResult): { found: Saying } | { missing: Saying } =>
  checked.holds ? { found: checked.said ? { text: checked.fact, said: checked.said } : verbatim(checked.fact) } : { missing: checked.said ? { text: checked.reason, said: checked.said } : verbatim(checked.reason) };

/** What a step's verification found, with its code. */
export const factOf = (verification: Verification): Saying => (verification.said ? { text: verification.fact, said: verification.said } : verbatim(verification.fact));

/** A step's condition (`when`, a repeat's `while`) in words. */
export const conditionWords = (condition: StepCondition): Saying =>
  condition.visible !== undefined ? say('flowRun.onScreen', { text: condition.visible }) : say('flowRun.notOnScreen', { text: condition.not_visible! });

/** How a finished block went, for its report line. */
export function blockDoneWords(frame: Frame): Saying {
  if ('repeat' in frame.block) return say('flowRun.repeated', { count: frame.round });
  if ('retry' in frame.block) return frame.round ? say('flowRun.passedOnTry', { try: frame.round + 1 }) : say('flowRun.passedFirstTry');
  return frame.block.run_flow.file ? say('flowRun.fileStepsPassed', { file: frame.block.run_flow.file }) : say('flowRun.stepsPassed');
}

/** A scroll's direction as a reader words it. */
export const DIRECTION_CODES = { up: 'flowRun.direction.up', down: 'flowRun.direction.down', left: 'flowRun.direction.left', right: 'flowRun.direction.right' } as const;

