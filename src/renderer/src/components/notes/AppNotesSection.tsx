import { useState } from 'react';
import { noteLine, NOTE_LIMITS, type AppNote } from '../../../../shared/app-notes';
import { textForReader } from '../../../../shared/said';
import { useBridge } from '../../bridge-context';
import { reportError } from '../../store/app-store';
import { useNotesStore } from '../../store/notes-store';
import { useWords } from '../../i18n/use-words';
import { formatTime } from '../../lib/format';
import { plainError } from '../../lib/errors';
import { askConfirm } from '../../store/confirm-store';

/** One note: read, or edited in place (goal and route), or deleted. */
function NoteItem({ note }: { note: AppNote }) {
  const bridge = useBridge();
  const [draft, setDraft] = useState<{ goal: string; route: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const words = useWords();
  const { t } = words;

  const save = async () => {
    if (!draft) return;
    try {
      await bridge.call('notes.update', { id: note.id, ...draft });
      setDraft(null);
      setProblem(null);
    } catch (error) {
      setProblem(plainError(error));
    }
  };
  const remove = async () => {
    if (!(await askConfirm(t('app:notes.confirmDelete', { note: noteLine(note) }), t('app:notes.delete')))) return;
    await bridge.call('notes.delete', { id: note.id }).catch(reportError);
  };

  if (draft) {
    return (
      <li className="app-note editing" data-testid="app-note">
        <label>
          {t('app:notes.goal')}
          <input value={draft.goal} maxLength={NOTE_LIMITS.goalChars} onChange={(event) => setDraft({ ...draft, goal: event.target.value })} />
        </label>
        <label>
          {t('app:notes.route')}
          <input value={draft.route} maxLength={NOTE_LIMITS.routeChars} onChange={(event) => setDraft({ ...draft, route: event.target.value })} />
        </label>
        {problem && (
          <p className="field-problem" role="alert">
            {problem}
          </p>
        )}
        <div className="row-actions">
          <button type="button" className="button primary" onClick={() => void save()}>
            {t('app:notes.save')}
          </button>
          <button type="button" className="button secondary" onClick={() => setDraft(null)}>
            {t('app:notes.cancel')}
          </button>
        </div>
      </li>
    );
  }
  return (
    <li className="app-note" data-testid="app-note" data-note-id={note.id}>
      <span className="app-note-line">{noteLine(note)}</span>
      <span className="muted app-note-meta">
        {note.editedAt ? t('app:notes.edited', { time: formatTime(note.editedAt, words) }) : t('app:notes.learned', { time: formatTime(note.createdAt, words) })}
      </span>
      <span className="row-actions">
        <button type="button" className="button link" onClick={() => setDraft({ goal: note.goal, route: note.route })} aria-label={t('app:notes.editLabel', { goal: note.goal })}>
          {t('app:notes.edit')}
        </button>
        <button type="button" className="button link danger" onClick={() => void remove()} aria-label={t('app:notes.deleteLabel', { goal: note.goal })}>
          {t('app:notes.delete')}
        </button>
      </span>
    </li>
  );
}

/** The notes per app the planner receives, grouped by app, for the person to read, correct or delete. */
export function AppNotesSection() {
  const listing = useNotesStore((s) => s.listing);
  const words = useWords();
  const { t } = words;
  const byApp = new Map<string, AppNote[]>();
  for (const note of listing?.notes ?? []) byApp.set(note.app, [...(byApp.get(note.app) ?? []), note]);
  return (
    <section className="app-notes" aria-labelledby="app-notes-title" data-testid="app-notes">
      <h3 id="app-notes-title">{t('app:notes.title')}</h3>
      <p className="muted">{t('app:notes.intro')}</p>
      {listing?.problem && (
        <p className="banner warning" role="alert">
          {textForReader(listing.problem, listing.problemSaid, words)}
        </p>
      )}
      {listing && !listing.problem && byApp.size === 0 && <p className="empty">{t('app:notes.empty')}</p>}
      {[...byApp].map(([app, notes]) => (
        <div key={app} className="app-notes-group">
          <h4>{app}</h4>
          <ul>
            {notes.map((note) => (
              <NoteItem key={note.id} note={note} />
            ))}
          </ul>
        </div>
      ))}
    </section>
  );
}
