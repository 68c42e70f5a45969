import type { StepRecord } from '../../../../shared/task';
import { stepSummary } from './step-view';

const stateOf = (step: StepRecord) => (!step.outcome ? 'pending' : step.outcome.ok ? 'ok' : 'error');

/** Every step of the task as a small button: a click jumps to that step and opens its card. */
export function StepNav({ steps, onJump }: { steps: StepRecord[]; onJump(step: number): void }) {
  if (steps.length < 2) return null;
  return (
    <nav className="step-nav" aria-label="Step list">
      <ol>
        {steps.map((step) => (
          <li key={step.step}>
            <button
              type="button"
              className={`step-chip is-${stateOf(step)}`}
              aria-label={`Go to step ${step.step}: ${stepSummary(step)}`}
              title={`Step ${step.step}: ${stepSummary(step)}`}
              onClick={() => onJump(step.step)}
            >
              {step.step}
            </button>
          </li>
        ))}
      </ol>
    </nav>
  );
}
