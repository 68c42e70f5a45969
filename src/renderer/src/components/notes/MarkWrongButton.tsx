import { useState } from 'react';
import { useBridge } from '../../bridge-context';
import { useWords } from '../../i18n/use-words';
import { reportError } from '../../store/app-store';

/** "Mark as wrong" on a task that reached its goal: the notes it taught go, so no later task follows its route. */
export function MarkWrongButton({ taskId }: { taskId: string }) {
  const bridge = useBridge();
  const [said, setSaid] = useState<string | null>(null);
  const { t } = useWords();
  const mark = async () => {
    try {
      const { removed } = await bridge.call('notes.markRunWrong', { taskId });
      setSaid(
        removed.length
          ? t('app:notes.markedWrong', { count: removed.length, routes: removed.map((note) => note.route).join('; ') })
          : t('app:notes.markedWrongNone'),
      );
    } catch (error) {
      reportError(error);
    }
  };
  return (
    <span className="mark-wrong">
      <button type="button" className="button secondary" onClick={() => void mark()} disabled={said !== null}>
        {t('app:notes.markWrong')}
      </button>
      {said && (
        <span className="muted" role="status" data-testid="mark-wrong-result">
          {said}
        </span>
      )}
    </span>
  );
}
