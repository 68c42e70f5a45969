import { useState } from 'react';
import type { GivenReply, PersonRequestOf } from '../../../../shared/contract';
import { useWords } from '../../i18n/use-words';
import { loopDescription } from '../../../../shared/supervision-words';


interface Props {
  requestId: string;
  request: PersonRequestOf<'hand-over'> | PersonRequestOf<'loop'>;
  onReply(reply: GivenReply): Promise<void>;
}

/** Each kind's title, button and hint (message keys). */
const WORDS = {
  'hand-over': { title: 'app:supervision.handOverTitle', go: 'app:supervision.handOverGo', hint: 'app:supervision.handOverHint' },
  loop: { title: 'app:supervision.loopTitle', go: 'app:supervision.loopGo', hint: 'app:supervision.loopHint' },
} as const;

/**
 * The agent hands the phone to the person (a login, a captcha, a payment) or the guard caught it looping: the
 * reason, the mirror is free meanwhile, and the person lets it continue (with a note for the agent) or stops it.
 */
export function HandOverPanel({ requestId, request, onReply }: Props) {
  const [note, setNote] = useState('');
  const [sending, setSending] = useState(false);
  const keys = WORDS[request.kind];
  const words = useWords();
  const { t } = words;
  const decide = async (decision: 'continue' | 'stop') => {
    setSending(true);
    try {
      const trimmed = note.trim();
      await onReply(decision === 'stop' ? { kind: 'stop' } : { kind: 'continue', ...(trimmed && { note: trimmed }) });
    } finally {
      setSending(false);
    }
  };
  return (
    <article className="supervision-card hand-over" aria-labelledby={`handover-${requestId}`} data-testid="hand-over-panel">
      {/* The title and the hint share a line, so the steps above keep their room in a small window. */}
      <header className="supervision-head">
        <h3 id={`handover-${requestId}`}>{t(keys.title)}</h3>
        <span className="muted small">{t(keys.hint)}</span>
      </header>
      <p className="supervision-text" data-testid="hand-over-reason">
        {request.kind === 'hand-over' ? request.reason : loopDescription(request, words)}
      </p>
      {/* The note and the buttons share a line, so the whole card fits the room a small window leaves it. */}
      <div className="supervision-reply">
        <div className="supervision-note">
          <label htmlFor={`note-${requestId}`}>{t('app:supervision.noteLabel')}</label>
          <input
            id={`note-${requestId}`}
            type="text"
            maxLength={2000}
            value={note}
            placeholder={t('app:supervision.notePlaceholder')}
            onChange={(event) => setNote(event.target.value)}
          />
        </div>
        <div className="supervision-actions">
          <button type="button" className="button primary" disabled={sending} onClick={() => void decide('continue')}>
            {t(keys.go)}
          </button>
          <button type="button" className="button danger" disabled={sending} onClick={() => void decide('stop')}>
            {t('app:supervision.stop')}
          </button>
        </div>
      </div>
    </article>
  );
}
