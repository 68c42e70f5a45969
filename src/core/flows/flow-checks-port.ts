import type { AskAi, Assertion } from '../../shared/flow';
import type { TokenUsage } from '@amc/provider-clients';
import type { Scene } from '../../shared/scene';
import type { Said } from '../../shared/said';

/**
 * What a replayed flow needs for its two steps that are not actions: an `assert` checked on the turn's Scene (code)
 * and an `ask_ai` question answered from it (the model). The replay planner calls these; the flow runner injects an
 * implementation, so the planner knows neither how a condition is judged nor which model answers.
 */

/**
 * Whether a condition holds, with the fact in plain words either way (`"Wi-Fi" is on`, `no "Saved" on screen`) and
 * its code, for a reader in another language.
 */
export type CheckResult = { holds: true; fact: string; said?: Said } | { holds: false; reason: string; said?: Said };

/** The model's answer to an `ask_ai` step; `usage` is the call's token usage (null when no model was called). */
export type AskAnswer =
  | { kind: 'yes-no'; yes: boolean; why: string; usage: TokenUsage | null }
  | { kind: 'extract'; value: string; usage: TokenUsage | null };

export interface FlowChecks {
  /** Checks every condition of `assertion` on this turn's Scene. */
  assert(scene: Scene, assertion: Assertion): CheckResult;
  /** Asks the model `askAi.question` about this turn's Scene; rejects (e.g. ToolCallUnavailable) when it cannot answer. */
  ask(scene: Scene, askAi: AskAi, signal: AbortSignal): Promise<AskAnswer>;
}
