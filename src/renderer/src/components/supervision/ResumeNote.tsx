import { useState, type FormEvent } from 'react';
import { useBridge } from '../../bridge-context';
import { reportError } from '../../store/app-store';

/** While a task is paused the person may leave the agent a note ("I logged in") and resume with it. */
export function ResumeNote({ taskId }: { taskId: string }) {
  const bridge = useBridge();
  const [note, setNote] = useState('');
  const [sending, setSending] = useState(false);
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
    <form className="supervision-form resume-note" onSubmit={(event) => void submit(event)} aria-label="Note for the agent">
      <label htmlFor="resume-note">Note for the agent when it resumes</label>
      <input id="resume-note" value={note} maxLength={2000} placeholder="e.g. I logged in" onChange={(event) => setNote(event.target.value)} />
      <button type="submit" className="button secondary" disabled={sending || !note.trim()}>
        Continue with this note
      </button>
    </form>
  );
}
