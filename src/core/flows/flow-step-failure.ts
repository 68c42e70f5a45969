import type { Said } from '../../shared/said';
import type { PlannedStep } from '../../shared/task';

/**
 * A step that fails (a check, a lookup with no model to take over, the model saying a sub-goal cannot be reached): the
 * flow stops at it, unless an `optional` step or a `retry` around it takes it in stride. Thrown inside the planner
 * only; plan() returns it as the turn's `fail` decision, with the model's call that said so, if any.
 */
export class FlowStepFailed extends Error {
  override name = 'FlowStepFailed';
  constructor(
    message: string,
    readonly call: PlannedStep | null = null,
    /** The message's code, for a reader in another language (a refusal). */
    readonly said?: Said,
  ) {
    super(message);
  }
}
