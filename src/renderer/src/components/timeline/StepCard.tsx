import { attemptsLabel, sentToPhone } from '../../../../shared/action';
import { isDenied, targetElement } from '../../../../shared/action-words';
import type { PlannerInfo, StepRecord } from '../../../../shared/task';
import { useWords } from '../../i18n/use-words';

import { stepErrorWords } from '../../../../shared/supervision-words';
import { formatDuration, stepSourceWords } from '../../../../shared/task-words';
import { formatArgs, formatTokens } from '../../lib/format';
import { VerificationBadge } from '../supervision/VerificationBadge';
import { SceneWireframe } from './SceneWireframe';
import { phaseWords, rationaleFirstLine, rationaleWords, reasoningUnavailableReason, stepPhase, stepSummary, targetDescription, targetPoint } from './step-view';

interface Props {
  step: StepRecord;
  planner: PlannerInfo;
  /** Mark where the step came from (replayed, skipped, the cache, the model): in a task whose steps are not all the model's. */
  showSource?: boolean;
  /** Whether the task is still running (a card without an outcome is then in progress, not abandoned). */
  running: boolean;
  /** The step whose question, confirmation or hand-over waits for the person, if any. */
  waitingStep?: number | null;
  /** How the task ended, when it ended in this turn without an action (failed or stopped while planning). */
  endedHere?: 'failed' | 'cancelled' | null;
  /** Open shows everything; closed, the card is one line (step, action, target, outcome). Open when not given. */
  expanded?: boolean;
  onToggle?(): void;
  /** Opens Inspect on this step's screen (given when the step has a Scene). */
  onInspect?(): void;
}

const ENDED_WORDS = { failed: 'app:step.endedFailed', cancelled: 'app:step.endedCancelled' } as const;

/**
 * One turn of a task: what the agent saw, why it acted, what it did and what happened. Closed, it is one line; a
 * click on that line opens it.
 */
export function StepCard({ step, planner, showSource = false, running, waitingStep = null, endedHere = null, expanded = true, onToggle, onInspect }: Props) {
  const phase = stepPhase(step, running, waitingStep);
  const planned = step.planned;
  const target = targetDescription(step);
  const words = useWords();
  const { t } = words;
  const unavailable = reasoningUnavailableReason(planner, words);
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
              {t('app:step.step', { step: step.step })}
            </button>
          ) : (
            t('app:step.step', { step: step.step })
          )}
        </h3>
        <span className="step-line" data-testid="step-summary">
          {planned ? stepSummary(step, words) : phase === 'done' ? t('app:step.noAction') : ''}
        </span>
        {showSource && planned && (
          <span className={`step-source source-${planned.source}`} data-testid="step-source">
            {stepSourceWords(planned.source)}
          </span>
        )}
        {phase !== 'done' && (
          <span className={`step-phase phase-${phase}`} role="status" data-testid="step-phase">
            {phaseWords(phase, words)}
          </span>
        )}
        <Outcome step={step} />
        {!expanded && rationaleFirstLine(step, words) && (
          <span className="step-why" data-testid="step-why">
            {rationaleFirstLine(step, words)}
          </span>
        )}
      </header>
      <div className="step-body" id={bodyId} hidden={!expanded}>
        <div className="step-text">
          {planned ? (
            <p className="step-action" data-testid="step-action">
              <code className="tool-name">{planned.tool}</code>
              {Object.keys(planned.args).length > 0 && <code className="tool-args">({formatArgs(planned.args)})</code>}
              {target && <span className="step-target">{t('app:step.on', { target })}</span>}
            </p>
          ) : (
            phase === 'done' && <p className="muted">{t(endedHere ? ENDED_WORDS[endedHere] : 'app:step.noActionChosen')}</p>
          )}
          {step.outcome && isDenied(step.outcome) && (
            <p className="step-denied" data-testid="step-denied">
              {t('app:step.denied')}
            </p>
          )}
          {step.outcome && !step.outcome.ok && !isDenied(step.outcome) && (
            <p className="step-error" data-testid="step-error">
              {stepErrorWords(step.outcome, words) || t('app:step.failed')}
            </p>
          )}
          {step.outcome?.ok && sentToPhone(step.outcome) && step.screenChanged === false && planned && (
            <p className="step-warning" data-testid="step-unchanged">
              {t('app:step.unchanged')}
            </p>
          )}
          <VerificationBadge verification={step.outcome?.verification} />
          {step.sceneError && <p className="step-warning">{t('app:step.sceneError', { error: step.sceneError })}</p>}
          {planned && (
            <>
              <section className="step-rationale" aria-label={t('app:step.rationale')}>
                <h4>{t('app:step.rationale')}</h4>
                {planned.rationale ? (
                  <p data-testid="step-rationale">{rationaleWords(step, words)}</p>
                ) : planned.source === 'runtime' ? (
                  <p data-testid="step-rationale">{t('common:runtimeStepWhy')}</p>
                ) : (
                  <p className="muted">{unavailable ?? t('app:step.noRationale')}</p>
                )}
              </section>
              <details className="step-thinking" data-testid="step-thinking">
                <summary>
                  {t('app:step.thinking')}
                  {planned.thinking ? '' : unavailable ? t('app:step.thinkingUnavailable') : t('app:step.thinkingNone')}
                </summary>
                {planned.thinking ? (
                  <p className="thinking-text">{planned.thinking}</p>
                ) : (
                  <p className="muted">{unavailable ?? t('app:step.noThinking')}</p>
                )}
              </details>
            </>
          )}
          <dl className="step-metrics" data-testid="step-metrics">
            <div>
              <dt>{t('app:step.observe')}</dt>
              <dd>{formatDuration(step.timings.observeMs, undefined, words)}</dd>
            </div>
            <div>
              <dt>{t('app:step.plan')}</dt>
              <dd>{formatDuration(step.timings.planMs, undefined, words)}</dd>
            </div>
            <div>
              <dt>{t('app:step.act')}</dt>
              <dd>{formatDuration(step.timings.executeMs, undefined, words)}</dd>
            </div>
            <div>
              <dt>{t('app:step.tokens')}</dt>
              <dd>{formatTokens(planned?.usage, words)}</dd>
            </div>
          </dl>
        </div>
        {step.scene && (
          <SceneWireframe
            scene={step.scene}
            targetId={targetElement(step)?.id}
            point={targetPoint(step)}
            title={target ? t('app:step.screenAtTarget', { step: step.step, target }) : t('app:step.screenAt', { step: step.step })}
          />
        )}
        {step.scene && onInspect && (
          <button type="button" className="button secondary small step-inspect" onClick={onInspect} aria-label={t('inspect:stepLabel', { step: step.step })} data-testid="step-inspect">
            {t('inspect:step')}
          </button>
        )}
      </div>
    </article>
  );
}

function Outcome({ step }: { step: StepRecord }) {
  const words = useWords();
  const { t } = words;
  const outcome = step.outcome;
  if (!outcome) return null;
  if (isDenied(outcome)) {
    return (
      <span className="outcome denied" data-testid="step-outcome">
        {t('app:step.deniedByYou')}
      </span>
    );
  }
  const attempts = attemptsLabel(outcome, words);
  return (
    <span className={`outcome ${outcome.ok ? 'ok' : 'error'}`} data-testid="step-outcome">
      {outcome.ok ? t('app:step.ok') : t('app:step.error')}
      {attempts && ` · ${attempts}`}
    </span>
  );
}
