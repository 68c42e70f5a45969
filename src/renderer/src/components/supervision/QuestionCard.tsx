import { useState, type FormEvent, type KeyboardEvent } from 'react';
import type { GivenReply, PersonRequestOf } from '../../../../shared/contract';
import { useWords } from '../../i18n/use-words';


interface Props {
  requestId: string;
  request: PersonRequestOf<'question'>;
  onReply(reply: GivenReply): Promise<void>;
}

/** The agent's question to the person, with a box to answer it (Enter sends, Shift+Enter starts a new line). */
export function QuestionCard({ requestId, request, onReply }: Props) {
  const [answer, setAnswer] = useState('');
  const [sending, setSending] = useState(false);
  const { t } = useWords();
  const send = async () => {
    const text = answer.trim();
    if (!text || sending) return;
    setSending(true);
    try {
      await onReply({ kind: 'answer', text });
    } finally {
      setSending(false);
    }
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void send();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  };
  return (
    <article className="supervision-card question" aria-labelledby={`question-${requestId}`} data-testid="question-card">
      <h3 id={`question-${requestId}`}>{t('app:supervision.asks')}</h3>
      <p className="supervision-text" data-testid="question-text">
        {request.question}
      </p>
      <form onSubmit={onSubmit} className="supervision-form">
        <label htmlFor={`answer-${requestId}`}>{t('app:supervision.yourAnswer')}</label>
        <textarea
          id={`answer-${requestId}`}
          rows={2}
          maxLength={2000}
          value={answer}
          autoFocus
          onChange={(event) => setAnswer(event.target.value)}
          onKeyDown={onKeyDown}
        />
        <div className="supervision-actions">
          <button type="submit" className="button primary" disabled={sending || !answer.trim()}>
            {t('app:supervision.sendAnswer')}
          </button>
        </div>
      </form>
    </article>
  );
}
