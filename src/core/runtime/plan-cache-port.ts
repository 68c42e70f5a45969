import type { TaskRecord } from '../../shared/task';

/** Where a finished task is offered to the plan cache, which decides whether the run may teach it (src/core/flows/plan-cache.ts). */
export interface PlanCachePort {
  /** Considers a completed task; resolves whether it was kept. Never throws for a run that teaches nothing. */
  consider(record: TaskRecord): Promise<boolean>;
}
