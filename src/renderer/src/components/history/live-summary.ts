import { actionCount } from '../../../../shared/turns';
import type { TaskSummary } from '../../../../shared/contract';
import type { TaskRecord } from '../../../../shared/task';
import { isRunning } from '../../store/task-store';

/**
 * A history row brought up to date from the live record this window follows (task events), so a running task
 * shows its steps, tokens and time so far without fetching the list again; the list catches up when it ends.
 */
export function withLiveProgress(summary: TaskSummary, live: TaskRecord | undefined, now: number): TaskSummary {
  if (!live || live.id !== summary.id) return summary;
  const elapsed = isRunning(live) && live.startedAt !== null ? Math.max(0, now - live.startedAt) : summary.durationMs;
  return {
    ...summary,
    status: live.status,
    failureReason: live.failureReason,
    ...(live.failureSaid && { failureSaid: live.failureSaid }),
    ...(live.failure && { failure: live.failure }),
    verification: live.verification,
    // Actions carried out, counted as the stored summary counts them.
    steps: actionCount(live),
    usage: live.usage,
    finishedAt: live.finishedAt,
    durationMs: live.timings.totalMs || elapsed,
  };
}
