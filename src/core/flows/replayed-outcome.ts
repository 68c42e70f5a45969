import { isDenied } from '../../shared/action-words';
import type { FlowStepStatus } from '../../shared/flow';
import type { Said } from '../../shared/said';
import { actionCall } from '../../shared/supervision-words';
import type { TurnSummary } from '../runtime/planner';
import { stepWords } from './flow-step-hint';

/** Whether a replayed action did what it did when the flow was recorded, as the turn after it tells. */

/** The flow step a replayed turn carried out, until the next turn tells whether it did what it did before. */
export interface Pending {
  index: number;
  turn: number;
  words: string;
  /** The call and the element it was planned on (its label), to word a refusal in the reader's language. */
  tool: string;
  args: Record<string, unknown>;
  label: string | undefined;
  /** A step inside a block: the block's own line says how it went, once it is done. */
  inner: boolean;
}

export interface ReplayedOutcome {
  /** The step's line in the report; absent for a step inside a block that went through (its block says so when done). */
  report?: { status: FlowStepStatus; detail: string; said?: Said };
  /** Why the flow cannot go on after it (with its code, for a refusal); absent when it went through and verified. */
  diverged?: { text: string; said?: Said };
}

/** How the pending step went, read from the turns so far; null while its turn is not among them. */
export function replayedOutcome(pending: Pending, history: readonly TurnSummary[] | undefined): ReplayedOutcome | null {
  const turn = history?.find((summary) => summary.step === pending.turn);
  if (!turn) return null;
  const { outcome } = turn;
  // A refusal names the action and who refused it: the person said no, which is neither the phone failing nor the flow.
  const refused = isDenied(outcome);
  const failed = refused
    ? `the person said no to ${pending.words}, so it was not done`
    : !outcome.ok
      ? `${pending.words} did not go through (${outcome.error ?? 'unknown error'})`
      : outcome.verification?.status === 'not-verified'
        ? `${pending.words}, but ${outcome.verification.fact}`
        : null;
  const call = refused ? actionCall(pending.tool, pending.args, pending.label) : undefined;
  const said: Said | undefined = call === undefined ? undefined : { code: 'refusal.saidNo', values: { actionCall: call } };
  const report = failed || !pending.inner ? { status: failed ? ('failed' as const) : ('passed' as const), detail: failed ?? outcome.verification?.fact ?? 'done', ...(said && { said }) } : undefined;
  if (!failed) return { ...(report && { report }) };
  const diverged = { text: `${stepWords(pending.index)}: ${failed}`, ...(call !== undefined && { said: { code: 'refusal.stepSaidNo', values: { step: pending.index + 1, actionCall: call } } }) };
  return { ...(report && { report }), diverged };
}
