import type { TokenUsage } from '@amc/provider-clients';
import { costOf, formatUsd } from '../../shared/prices';
import type { GuardFinding } from '../../shared/task';
import type { TaskPolicies } from './task-policies';

/**
 * Budgets: checked before every model call, so that once a task is decided to end no further call is made. A
 * token or cost budget also ends the task when the next call would pass it (judged by the last call's size, since
 * every prompt is at least as long as the one before).
 */

export interface BudgetState {
  /** Actions (and questions, hand-overs, denied actions) so far. */
  steps: number;
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
  /** The task's failure reason, naming the budget. */
  reason: string;
}

const tokens = (usage: TokenUsage) => usage.inputTokens + usage.outputTokens;
const count = (n: number) => n.toLocaleString('en-US');

function minutes(ms: number): string {
  const total = ms / 60_000;
  return `${Number.isInteger(total) ? total : total.toFixed(1)} min`;
}

export function budgetExceeded(state: BudgetState, maxSteps: number, policies: Pick<TaskPolicies, 'maxTokens' | 'maxCostUsd' | 'maxDurationMs' | 'price'>): BudgetExceeded | null {
  if (state.steps >= maxSteps) {
    return { finding: 'steps', reason: `reached the maximum of ${maxSteps} step${maxSteps === 1 ? '' : 's'} without finishing the goal` };
  }
  const { maxTokens, maxCostUsd, maxDurationMs, price } = policies;
  if (maxTokens !== null) {
    const used = tokens(state.usage);
    const next = state.lastCall ? tokens(state.lastCall) : 0;
    if (used >= maxTokens || used + next > maxTokens) {
      const why = used >= maxTokens ? 'reached' : 'the next model call would pass it';
      return { finding: 'tokens', reason: `token budget reached: ${count(used)} of ${count(maxTokens)} tokens used (${why})` };
    }
  }
  if (maxCostUsd !== null && price !== null && state.costUsd !== null) {
    const next = state.lastCall ? costOf(state.lastCall, price) : 0;
    if (state.costUsd >= maxCostUsd || state.costUsd + next > maxCostUsd) {
      const why = state.costUsd >= maxCostUsd ? 'reached' : 'the next model call would pass it';
      return { finding: 'cost', reason: `cost budget reached: ${formatUsd(state.costUsd)} of ${formatUsd(maxCostUsd)} spent (${why})` };
    }
  }
  if (maxDurationMs !== null && state.agentMs >= maxDurationMs) {
    return { finding: 'time', reason: `time budget reached: the agent worked ${minutes(state.agentMs)} of its ${minutes(maxDurationMs)}` };
  }
  return null;
}
