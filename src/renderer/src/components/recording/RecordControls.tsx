import { useEffect, useState, type FormEvent } from 'react';
import type { CheckKind } from '../../../../shared/recording';
import { useBridge } from '../../bridge-context';
import { useWords } from '../../i18n/use-words';
import { reportError } from '../../store/app-store';
import { useRecording } from './use-recording';

/**
 * Record beside the mirror: start, "Add check" (the next click on the mirror checks the element there), and Stop,
 * which asks what the recording does and keeps it in History. Every control is a native button or field: Tab
 * reaches it, Enter or Space presses it, and Esc leaves a check unmade.
 */
export function RecordControls({ serial, personHasControl }: { serial: string; personHasControl: boolean }) {
  const bridge = useBridge();
  const recording = useRecording(serial);
  const [naming, setNaming] = useState(false);
  const [saved, setSaved] = useState(false);
  const { t } = useWords();
  const [goal, setGoal] = useState('');
  const checking = recording?.checking ?? null;

  useEffect(() => {
    if (!checking) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') void bridge.call('record.cancelCheck', { serial }).catch(reportError);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [bridge, serial, checking]);

  const start = () => {
    setSaved(false);
    bridge.call('record.start', { serial }).catch(reportError);
  };
  const check = (kind: CheckKind) =>
    bridge.call(checking === kind ? 'record.cancelCheck' : 'record.addCheck', checking === kind ? { serial } : { serial, kind }).catch(reportError);
  const save = (event: FormEvent) => {
    event.preventDefault();
    bridge
      .call('record.stop', { serial, goal: goal.trim() || t('app:record.goalDefault') })
      .then(() => {
        setNaming(false);
        setSaved(true);
      })
      .catch(reportError);
  };

  if (!recording) {
    return (
      <div className="record-controls" role="group" aria-label={t('app:record.groupLabel')}>
        <button type="button" className="button secondary" disabled={!personHasControl} onClick={start} aria-label={t('app:record.startLabel')} title={t('app:record.startLabel')}>
          <span aria-hidden="true">● </span>
          {t('app:record.start')}
        </button>
        {saved && (
          <span className="form-ok small" role="status" data-testid="record-saved">
            {t('app:record.saved')}
          </span>
        )}
      </div>
    );
  }
  return (
    <div className="record-controls is-recording" role="group" aria-label={t('app:record.groupLabel')}>
      <span className="record-status" role="status" data-testid="record-status">
        {t('app:record.recording', { count: recording.steps.length })}
      </span>
      <button type="button" className="button secondary" aria-pressed={checking === 'visible'} aria-label={t('app:record.checkShowsLabel')} onClick={() => void check('visible')}>
        {t('app:record.checkShows')}
      </button>
      <button type="button" className="button secondary" aria-pressed={checking === 'checked'} aria-label={t('app:record.checkStateLabel')} onClick={() => void check('checked')}>
        {t('app:record.checkState')}
      </button>
      <button type="button" className="button secondary" aria-pressed={checking === 'text'} aria-label={t('app:record.keepTextLabel')} onClick={() => void check('text')}>
        {t('app:record.keepText')}
      </button>
      {checking && (
        <span className="small muted" role="status" data-testid="record-check-hint">
          {t('app:record.checkHint')}
        </span>
      )}
      {naming ? (
        <form className="record-save" onSubmit={save}>
          <label>
            {t('app:record.goalLabel')}
            <input autoFocus value={goal} maxLength={2000} placeholder={t('app:record.goalDefault')} onChange={(event) => setGoal(event.target.value)} />
          </label>
          <button type="submit" className="button">
            {t('app:record.save')}
          </button>
          <button type="button" className="button secondary" onClick={() => setNaming(false)}>
            {t('app:record.cancel')}
          </button>
        </form>
      ) : (
        <button type="button" className="button" onClick={() => setNaming(true)}>
          {t('app:record.stop')}
        </button>
      )}
      <button type="button" className="button secondary" onClick={() => void bridge.call('record.discard', { serial }).catch(reportError)}>
        {t('app:record.discard')}
      </button>
    </div>
  );
}
