import type { Said, Saying } from '../../shared/said';
import type { PlannedStep } from '../../shared/task';
import { stepFailed } from './flow-step-said';

/**
 * Why a flow step failed, as a value: which step (null: the flow as a whole, e.g. the screen could not be read), what
 * went wrong as the step's own line says it, and, where it differs, the run's words. Each is a Saying (English text
 * for the model and the record, with its code for a reader): never a sentence whose "Step N: " is stripped again.
 */
export interface StepFailure {
  index: number | null;
  reason: Saying;
  /** The run's words, where they are not "Step N: " and the reason (a refusal names the step the person said no to). */
  run?: Saying;
}

/** The run's reason: "Step 3: …" around the step's reason (the reason alone for the flow as a whole). */
export const runReason = (failure: StepFailure): Saying => failure.run ?? (failure.index === null ? failure.reason : stepFailed(failure.index, failure.reason));

/**
 * A step that fails (a check, a lookup with no model to take over, the model saying a sub-goal cannot be reached): the
 * flow stops at it, unless an `optional` step or a `retry` around it takes it in stride. Thrown inside the planner
 * only; plan() returns it as the turn's `fail` decision, with the model's call that said so, if any.
 */
export class FlowStepFailed extends Error {
  override name = 'FlowStepFailed';
  /** The run's reason's code, for a reader in another language. */
  readonly said: Said;
  constructor(
    readonly failure: StepFailure,
    readonly call: PlannedStep | null = null,
  ) {
    const run = runReason(failure);
    super(run.text);
    this.said = run.said;
  }

  /** The run's reason: its English text and its code. */
  get reason(): Saying {
    return { text: this.message, said: this.said };
  }
}
