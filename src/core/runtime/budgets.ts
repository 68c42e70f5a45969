import type { TokenUsage } from '@amc/provider-clients';
import { costOf, formatUsd } from '../../shared/prices';
import type { GuardFinding } from '../../shared/task';
import { say, type Saying } from '../../shared/said';
import type { TaskPolicies } from './task-policies';

/**
 * Budgets: checked before every model call, so that once a task is decided to end no further call is made. A
 * token or cost budget also ends the task when the next call would pass it (judged by the last call's size, since
 * every prompt is at least as long as the one before).
 */

export interface BudgetState {
  /** Turns so far (see shared/turns.ts): what the step budget, `maxSteps`, counts. */
  turns: number;
  usage: TokenUsage;
  /** The last model call's usage (null before the first). */
  lastCall: TokenUsage | null;
  /** USD so far; null when the model has no price. */
  costUsd: number | null;
  /** The agent's own time so far (waiting for a person and pauses left out). */
  agentMs: number;
}

export interface BudgetExceeded {
  finding: Extract<GuardFinding, 'steps' | 'tokens' | 'cost' | 'time'>;
  /** The task's failure reason, naming the budget, with its code. */
  reason: Saying;
}

const tokens = (usage: TokenUsage) => usage.inputTokens + usage.outputTokens;
const count = (n: number) => n.toLocaleString('en-US');

function minutes(ms: number): string {
  const total = ms / 60_000;
  return Number.isInteger(total) ? String(total) : total.toFixed(1);
}

export function budgetExceeded(state: BudgetState, maxSteps: number, policies: Pick<TaskPolicies, 'maxTokens' | 'maxCostUsd' | 'maxDurationMs' | 'price'>): BudgetExceeded | null {
  if (state.turns >= maxSteps) {
    return { finding: 'steps', reason: say('budget.steps', { count: maxSteps }) };
  }
  const { maxTokens, maxCostUsd, maxDurationMs, price } = policies;
  if (maxTokens !== null) {
    const used = tokens(state.usage);
    const next = state.lastCall ? tokens(state.lastCall) : 0;
    if (used >= maxTokens || used + next > maxTokens) {
      return { finding: 'tokens', reason: say(used >= maxTokens ? 'budget.tokensReached' : 'budget.tokensWouldPass', { used: count(used), max: count(maxTokens) }) };
    }
  }
  if (maxCostUsd !== null && price !== null && state.costUsd !== null) {
    const next = state.lastCall ? costOf(state.lastCall, price) : 0;
    if (state.costUsd >= maxCostUsd || state.costUsd + next > maxCostUsd) {
      const values = { used: formatUsd(state.costUsd), max: formatUsd(maxCostUsd) };
      return { finding: 'cost', reason: say(state.costUsd >= maxCostUsd ? 'budget.costReached' : 'budget.costWouldPass', values) };
    }
  }
  if (maxDurationMs !== null && state.agentMs >= maxDurationMs) {
    return { finding: 'time', reason: say('budget.time', { worked: minutes(state.agentMs), max: minutes(maxDurationMs) }) };
  }
  return null;
}
