import { attemptsLabel, sentToPhone } from '../../../../shared/action';
import { isDenied, targetElement } from '../../../../shared/action-words';
import type { PlannerInfo, StepRecord } from '../../../../shared/task';
import { withoutErrorName } from '../../lib/errors';
import { formatDuration, stepSourceWords } from '../../../../shared/task-words';
import { formatArgs, formatTokens } from '../../lib/format';
import { VerificationBadge } from '../supervision/VerificationBadge';
import { SceneWireframe } from './SceneWireframe';
import { PHASE_WORDS, rationaleFirstLine, reasoningUnavailableReason, stepPhase, stepSummary, targetDescription, targetPoint } from './step-view';

interface Props {
  step: StepRecord;
  planner: PlannerInfo;
  /** Mark where the step came from (replayed, skipped, the cache, the model): in a task whose steps are not all the model's. */
  showSource?: boolean;
  /** Whether the task is still running (a card without an outcome is then in progress, not abandoned). */
  running: boolean;
  /** The step whose question, confirmation or hand-over waits for the person, if any. */
  waitingStep?: number | null;
  /** Whether this step's action changed the screen (known once the next turn has looked), else null. */
  changedScreen?: boolean | null;
  /** How the task ended, when it ended in this turn without an action (failed or stopped while planning). */
  endedHere?: 'failed' | 'cancelled' | null;
  /** Open shows everything; closed, the card is one line (step, action, target, outcome). Open when not given. */
  expanded?: boolean;
  onToggle?(): void;
}

const ENDED_WORDS = {
  failed: 'The task failed before an action was chosen in this turn (the reason is below).',
  cancelled: 'The task was stopped before an action was chosen in this turn.',
} as const;

/**
 * One turn of a task: what the agent saw, why it acted, what it did and what happened. Closed, it is one line; a
 * click on that line opens it.
 */
export function StepCard({ step, planner, showSource = false, running, waitingStep = null, changedScreen = null, endedHere = null, expanded = true, onToggle }: Props) {
  const phase = stepPhase(step, running, waitingStep);
  const planned = step.planned;
  const target = targetDescription(step);
  const unavailable = reasoningUnavailableReason(planner);
  const bodyId = `step-${step.step}-body`;
  return (
    <article
      className={`step-card${expanded ? ' is-expanded' : ''}`}
      aria-labelledby={`step-${step.step}-title`}
      data-testid="step-card"
      data-step={step.step}
      data-expanded={expanded}
    >
      <header className={`step-header${onToggle ? ' is-toggle' : ''}`} onClick={onToggle}>
        <h3 id={`step-${step.step}-title`}>
          {onToggle ? (
            <button type="button" className="step-toggle" aria-expanded={expanded} aria-controls={bodyId}>
              <span className="step-caret" aria-hidden="true">
                {expanded ? '▾' : '▸'}
              </span>
              Step {step.step}
            </button>
          ) : (
            `Step ${step.step}`
          )}
        </h3>
        <span className="step-line" data-testid="step-summary">
          {planned ? stepSummary(step) : phase === 'done' ? 'no action' : ''}
        </span>
        {showSource && planned && (
          <span className={`step-source source-${planned.source}`} data-testid="step-source">
            {stepSourceWords(planned.source)}
          </span>
        )}
        {phase !== 'done' && (
          <span className={`step-phase phase-${phase}`} role="status" data-testid="step-phase">
            {PHASE_WORDS[phase]}
          </span>
        )}
        <Outcome step={step} />
        {!expanded && rationaleFirstLine(step) && (
          <span className="step-why" data-testid="step-why">
            {rationaleFirstLine(step)}
          </span>
        )}
      </header>
      <div className="step-body" id={bodyId} hidden={!expanded}>
        <div className="step-text">
          {planned ? (
            <p className="step-action" data-testid="step-action">
              <code className="tool-name">{planned.tool}</code>
              {Object.keys(planned.args).length > 0 && <code className="tool-args">({formatArgs(planned.args)})</code>}
              {target && <span className="step-target"> on {target}</span>}
            </p>
          ) : (
            phase === 'done' && <p className="muted">{endedHere ? ENDED_WORDS[endedHere] : 'No action was chosen in this turn.'}</p>
          )}
          {step.outcome && isDenied(step.outcome) && (
            <p className="step-denied" data-testid="step-denied">
              You denied this action, so it did not run; the agent was told and went on.
            </p>
          )}
          {step.outcome && !step.outcome.ok && !isDenied(step.outcome) && (
            <p className="step-error" data-testid="step-error">
              {step.outcome.error ? withoutErrorName(step.outcome.error) : 'The action failed.'}
            </p>
          )}
          {step.outcome?.ok && sentToPhone(step.outcome) && changedScreen === false && planned && (
            <p className="step-warning" data-testid="step-unchanged">
              The screen did not change after this action.
            </p>
          )}
          <VerificationBadge verification={step.outcome?.verification} />
          {step.sceneError && <p className="step-warning">The screen could not be read: {step.sceneError}</p>}
          {planned && (
            <>
              <section className="step-rationale" aria-label="Rationale">
                <h4>Rationale</h4>
                {planned.rationale ? (
                  <p data-testid="step-rationale">{planned.rationale}</p>
                ) : (
                  <p className="muted">{unavailable ?? 'The model gave no rationale in this turn.'}</p>
                )}
              </section>
              <details className="step-thinking" data-testid="step-thinking">
                <summary>Thinking{planned.thinking ? '' : unavailable ? ' — not available' : ' — none'}</summary>
                {planned.thinking ? (
                  <p className="thinking-text">{planned.thinking}</p>
                ) : (
                  <p className="muted">{unavailable ?? 'The model did not think aloud in this turn (extended thinking is off or it chose not to).'}</p>
                )}
              </details>
            </>
          )}
          <dl className="step-metrics" data-testid="step-metrics">
            <div>
              <dt>Observe</dt>
              <dd>{formatDuration(step.timings.observeMs)}</dd>
            </div>
            <div>
              <dt>Plan</dt>
              <dd>{formatDuration(step.timings.planMs)}</dd>
            </div>
            <div>
              <dt>Act</dt>
              <dd>{formatDuration(step.timings.executeMs)}</dd>
            </div>
            <div>
              <dt>Tokens</dt>
              <dd>{formatTokens(planned?.usage)}</dd>
            </div>
          </dl>
        </div>
        {step.scene && (
          <SceneWireframe
            scene={step.scene}
            targetId={targetElement(step)?.id}
            point={targetPoint(step)}
            title={`Screen at step ${step.step}${target ? `, target ${target}` : ''}`}
          />
        )}
      </div>
    </article>
  );
}

function Outcome({ step }: { step: StepRecord }) {
  const outcome = step.outcome;
  if (!outcome) return null;
  if (isDenied(outcome)) {
    return (
      <span className="outcome denied" data-testid="step-outcome">
        ⊘ denied by you
      </span>
    );
  }
  const attempts = attemptsLabel(outcome);
  return (
    <span className={`outcome ${outcome.ok ? 'ok' : 'error'}`} data-testid="step-outcome">
      {outcome.ok ? '✓ ok' : '✗ error'}
      {attempts && ` · ${attempts}`}
    </span>
  );
}
