import type { Said, Saying } from '../../shared/said';
import type { PlannedStep } from '../../shared/task';

/**
 * A step that fails (a check, a lookup with no model to take over, the model saying a sub-goal cannot be reached): the
 * flow stops at it, unless an `optional` step or a `retry` around it takes it in stride. Thrown inside the planner
 * only; plan() returns it as the turn's `fail` decision, with the model's call that said so, if any.
 */
export class FlowStepFailed extends Error {
  override name = 'FlowStepFailed';
  /** The message's code, for a reader in another language. */
  readonly said: Said;
  constructor(
    reason: Saying,
    readonly call: PlannedStep | null = null,
  ) {
    super(reason.text);
    this.said = reason.said;
  }

  /** The failure as a reason: its English text and its code. */
  get reason(): Saying {
    return { text: this.message, said: this.said };
  }
}
