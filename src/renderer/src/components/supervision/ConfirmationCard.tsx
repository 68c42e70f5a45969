import { useState } from 'react';
import type { Scene } from '../../../../shared/scene';
import type { GivenReply, PersonRequestOf } from '../../../../shared/contract';
import { actionWords } from '../../../../shared/supervision-words';
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
      <h3 id={`confirm-${requestId}`}>Allow this action?</h3>
      <div className="supervision-body">
        <div className="supervision-text">
          <p data-testid="confirmation-action">
            <strong>{actionWords(request.tool, request.args, targetLabel)}</strong>{' '}
            <code className="tool-args muted">
              {request.tool}
              {args}
            </code>
          </p>
          <p className="muted" data-testid="confirmation-why">
            Held because: {request.reasons.join('; ')}
          </p>
          <p data-testid="confirmation-rationale">
            {request.rationale ? <>The model says: {request.rationale}</> : <span className="muted">The model gave no rationale.</span>}
          </p>
          <div className="supervision-actions">
            <button type="button" className="button primary" disabled={sending} onClick={() => void decide('allow')}>
              Allow
            </button>
            <button type="button" className="button danger" disabled={sending} onClick={() => void decide('deny')} title="Keep this action from the phone; the agent goes on">
              Deny
            </button>
            <button type="button" className="button danger" disabled={sending} onClick={() => void decide('deny-and-stop')} title="Keep this action from the phone and end the task">
              Deny and stop
            </button>
            <button type="button" className="button secondary" disabled={sending} onClick={() => void decide('allow-for-task')}>
              Allow for the rest of this task
            </button>
          </div>
        </div>
        {scene && (
          <SceneWireframe
            scene={scene}
            targetId={request.target?.elementId}
            title={`Screen at step ${step}${targetLabel ? `, target ${targetLabel}` : ''}`}
          />
        )}
      </div>
    </article>
  );
}
