import { useState } from 'react';
import type { GivenReply, PersonRequestOf } from '../../../../shared/contract';

interface Props {
  requestId: string;
  request: PersonRequestOf<'hand-over'> | PersonRequestOf<'loop'>;
  onReply(reply: GivenReply): Promise<void>;
}

const WORDS = {
  'hand-over': { title: 'Your turn on the phone', go: 'Done, continue', hint: 'The mirror is yours: use the phone, then let the agent go on.' },
  loop: { title: 'The agent seems stuck', go: 'Continue', hint: 'You may fix things on the phone through the mirror before it goes on.' },
} as const;

/**
 * The agent hands the phone to the person (a login, a captcha, a payment) or the guard caught it looping: the
 * reason, the mirror is free meanwhile, and the person lets it continue (with a note for the agent) or stops it.
 */
export function HandOverPanel({ requestId, request, onReply }: Props) {
  const [note, setNote] = useState('');
  const [sending, setSending] = useState(false);
  const words = WORDS[request.kind];
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
        <h3 id={`handover-${requestId}`}>{words.title}</h3>
        <span className="muted small">{words.hint}</span>
      </header>
      <p className="supervision-text" data-testid="hand-over-reason">
        {request.kind === 'hand-over' ? request.reason : request.description}
      </p>
      {/* The note and the buttons share a line, so the whole card fits the room a small window leaves it. */}
      <div className="supervision-reply">
        <div className="supervision-note">
          <label htmlFor={`note-${requestId}`}>Note for the agent (optional)</label>
          <input
            id={`note-${requestId}`}
            type="text"
            maxLength={2000}
            value={note}
            placeholder="e.g. I logged in"
            onChange={(event) => setNote(event.target.value)}
          />
        </div>
        <div className="supervision-actions">
          <button type="button" className="button primary" disabled={sending} onClick={() => void decide('continue')}>
            {words.go}
          </button>
          <button type="button" className="button danger" disabled={sending} onClick={() => void decide('stop')}>
            Stop
          </button>
        </div>
      </div>
    </article>
  );
}
