import { useState, type FormEvent } from 'react';
import { useBridge } from '../../bridge-context';
import { useWords } from '../../i18n/use-words';
import { reportError } from '../../store/app-store';

/** While a task is paused the person may leave the agent a note ("I logged in") and resume with it. */
export function ResumeNote({ taskId }: { taskId: string }) {
  const bridge = useBridge();
  const [note, setNote] = useState('');
  const [sending, setSending] = useState(false);
  const { t } = useWords();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const text = note.trim();
    if (!text) return;
    setSending(true);
    try {
      await bridge.call('tasks.resume', { taskId, note: text });
      setNote('');
    } catch (error) {
      reportError(error);
    } finally {
      setSending(false);
    }
  };
  return (
    <form className="supervision-form resume-note" onSubmit={(event) => void submit(event)} aria-label={t('app:supervision.resumeLabel')}>
      <label htmlFor="resume-note">{t('app:supervision.resumeNote')}</label>
      <input id="resume-note" value={note} maxLength={2000} placeholder={t('app:supervision.notePlaceholder')} onChange={(event) => setNote(event.target.value)} />
      <button type="submit" className="button secondary" disabled={sending || !note.trim()}>
        {t('app:supervision.resumeWithNote')}
      </button>
    </form>
  );
}
