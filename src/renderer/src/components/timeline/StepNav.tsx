import type { StepRecord } from '../../../../shared/task';
import { useWords } from '../../i18n/use-words';
import { stepSummary } from './step-view';

const stateOf = (step: StepRecord) => (!step.outcome ? 'pending' : step.outcome.ok ? 'ok' : 'error');

/** Every step of the task as a small button: a click jumps to that step and opens its card. */
export function StepNav({ steps, onJump }: { steps: StepRecord[]; onJump(step: number): void }) {
  const words = useWords();
  const { t } = words;
  if (steps.length < 2) return null;
  return (
    <nav className="step-nav" aria-label={t('app:timeline.stepList')}>
      <ol>
        {steps.map((step) => (
          <li key={step.step}>
            <button
              type="button"
              className={`step-chip is-${stateOf(step)}`}
              aria-label={t('app:timeline.goToStep', { step: step.step, summary: stepSummary(step, words) })}
              title={t('app:timeline.stepTitle', { step: step.step, summary: stepSummary(step, words) })}
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
