import { isDenied } from '../../shared/action-words';
import { say, type Saying } from '../../shared/said';
import type { FlowStepMark, Locator } from '../../shared/flow';
import { actionCall, sayActions } from '../../shared/supervision-words';
import { locatorCall } from './locator-said';
import type { TurnSummary } from '../runtime/planner';
import type { CursorPlace } from './flow-cursor';
import { factOf, sayAbout } from './flow-step-said';
import type { StepFailure } from './flow-step-failure';

/** Whether a replayed action did what it did when the flow was recorded, as the turn after it tells. */

/** The flow step a replayed turn carried out, until the next turn tells whether it did what it did before. */
export interface Pending {
  index: number;
  turn: number;
  /** The call and the element it was planned on (its label), to word a refusal in the reader's language. */
  tool: string;
  args: Record<string, unknown>;
  label: string | undefined;
  /** The element as the flow names it (its locator), for the step's own words. */
  target: Locator | undefined;
  /** A step inside a block: the block's own line says how it went, once it is done. */
  inner: boolean;
  /** The block's line, when this step was its last: said only once the step went through. */
  blockDone?: Saying;
  /** Inside a `retry`: where the flow was when the action was planned, so a failure seen on the next look retries. */
  retryFrom?: CursorPlace;
}

export interface ReplayedOutcome {
  /** The step's line in the report; absent for a step inside a block that went through (its block says so when done). */
  report?: { status: FlowStepMark['status']; detail: Saying };
  /** Why the flow cannot go on after it; absent when it went through and verified. */
  diverged?: StepFailure;
  /** The person said no to it: a choice, which a `retry` never asks again. */
  refused?: true;
}

/** How the pending step went, read from the turns so far; null while its turn is not among them. */
export function replayedOutcome(pending: Pending, history: readonly TurnSummary[] | undefined): ReplayedOutcome | null {
  const turn = history?.find((summary) => summary.step === pending.turn);
  if (!turn) return null;
  const { outcome } = turn;
  // A refusal names the action and who refused it: the person said no, which is neither the phone failing nor the flow.
  const refused = isDenied(outcome);
  // A refusal names the element it was planned on; the other words name it as the flow does.
  const call = refused ? actionCall(pending.tool, pending.args, pending.label) : locatorCall(pending.tool, pending.args, pending.target);
  const verification = outcome.verification;
  const failed = refused
    ? sayActions('refusal.saidNo', { actionCall: call })
    : !outcome.ok
      ? sayActions('flowRun.didNotGoThrough', { actionCall: call, error: outcome.error ?? 'unknown error' })
      : verification?.status === 'not-verified'
        ? sayAbout('flowRun.notVerified', { actionCall: call }, { factSaid: factOf(verification) })
        : null;
  const detail = failed ?? (pending.inner ? pending.blockDone : verification ? factOf(verification) : say('flowRun.done'));
  const report = detail === undefined ? undefined : { status: failed ? ('failed' as const) : ('passed' as const), detail };
  if (!failed) return { ...(report && { report }) };
  const diverged: StepFailure = { index: pending.index, reason: failed, ...(refused && { run: sayActions('refusal.stepSaidNo', { step: pending.index + 1, actionCall: call }) }) };
  return { ...(report && { report }), diverged, ...(refused && { refused: true as const }) };
}
