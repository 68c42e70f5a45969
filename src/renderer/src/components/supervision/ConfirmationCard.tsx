import { useState } from 'react';
import type { Scene } from '../../../../shared/scene';
import type { GivenReply, PersonRequestOf } from '../../../../shared/contract';
import { actionWords, confirmationReasons } from '../../../../shared/supervision-words';
import { useWords } from '../../i18n/use-words';
import { formatArgs } from '../../lib/format';
import { SceneWireframe } from '../timeline/SceneWireframe';

interface Props {
  requestId: string;
  /** The turn the action was chosen in. */
  step: number;
  request: PersonRequestOf<'confirmation'>;
  /** The Scene of the turn the action was chosen in (its target is outlined), when it could be read. */
  scene: Scene | null;
  onReply(reply: GivenReply): Promise<void>;
}

const DECISIONS = {
  allow: { kind: 'allow', scope: 'once' },
  deny: { kind: 'deny' },
  'deny-and-stop': { kind: 'stop' },
  'allow-for-task': { kind: 'allow', scope: 'task' },
} as const satisfies Record<string, GivenReply>;
type Decision = keyof typeof DECISIONS;

/** A sensitive action held before it runs: what it is, where it lands, why the model wants it; the person decides. */
export function ConfirmationCard({ requestId, step, request, scene, onReply }: Props) {
  const [sending, setSending] = useState(false);
  const words = useWords();
  const { t } = words;
  const decide = async (decision: Decision) => {
    setSending(true);
    try {
      await onReply(DECISIONS[decision]);
    } finally {
      setSending(false);
    }
  };
  const targetLabel = request.target?.label;
  const args = Object.keys(request.args).length > 0 ? `(${formatArgs(request.args)})` : '';
  return (
    <article className="supervision-card confirmation" aria-labelledby={`confirm-${requestId}`} data-testid="confirmation-card">
      <h3 id={`confirm-${requestId}`}>{t('app:supervision.allowQuestion')}</h3>
      <div className="supervision-body">
        <div className="supervision-text">
          <p data-testid="confirmation-action">
            <strong>{actionWords(request.tool, request.args, targetLabel, words)}</strong>{' '}
            <code className="tool-args muted">
              {request.tool}
              {args}
            </code>
          </p>
          <p className="muted" data-testid="confirmation-why">
            {t('app:supervision.heldBecause', { reasons: confirmationReasons(request, words) })}
          </p>
          <p data-testid="confirmation-rationale">
            {request.rationale ? t('app:supervision.modelSays', { rationale: request.rationale }) : <span className="muted">{t('app:supervision.noRationale')}</span>}
          </p>
          <div className="supervision-actions">
            <button type="button" className="button primary" disabled={sending} onClick={() => void decide('allow')}>
              {t('app:supervision.allow')}
            </button>
            <button type="button" className="button danger" disabled={sending} onClick={() => void decide('deny')} title={t('app:supervision.denyTitle')}>
              {t('app:supervision.deny')}
            </button>
            <button type="button" className="button danger" disabled={sending} onClick={() => void decide('deny-and-stop')} title={t('app:supervision.denyStopTitle')}>
              {t('app:supervision.denyStop')}
            </button>
            <button type="button" className="button secondary" disabled={sending} onClick={() => void decide('allow-for-task')}>
              {t('app:supervision.allowTask')}
            </button>
          </div>
        </div>
        {scene && (
          <SceneWireframe
            scene={scene}
            targetId={request.target?.elementId}
            title={targetLabel ? t('app:step.screenAtTarget', { step, target: targetLabel }) : t('app:step.screenAt', { step })}
          />
        )}
      </div>
    </article>
  );
}
