import { useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { HISTORY_PAGE_TURNS, type TurnsReply } from '../../../../shared/contract';
import type { TaskRecord } from '../../../../shared/task';
import { formatCount } from '../../../../shared/task-words';
import { useBridge } from '../../bridge-context';
import { useWords } from '../../i18n/use-words';
import { useHistoryStore } from '../../store/history-store';
import { useTaskStore } from '../../store/task-store';

/** The task with a page of earlier turns before the ones it holds; unchanged when the page is not the one just before them. */
export function withEarlierTurns(task: TaskRecord, { id, from, steps }: TurnsReply): TaskRecord {
  const page = task.page;
  if (id !== task.id || !page || from + steps.length !== page.from) return task;
  return { ...task, steps: [...steps, ...task.steps], page: { ...page, from } };
}

/** Puts the longer record wherever the window holds this task (the phone's entry, the task opened in History). */
function showLonger(task: TaskRecord): void {
  const { bySerial, replace } = useTaskStore.getState();
  if (bySerial[task.serial]?.task.id === task.id) replace(task);
  const history = useHistoryStore.getState();
  if (history.opened?.id === task.id) history.open(task);
}

/**
 * Above a long task's turns, when history gave only its latest page: how many are not shown, and a button that reads
 * the page before. The turns in view stay where they are as the earlier ones are put above them.
 */
export function EarlierTurns({ task, area }: { task: TaskRecord; area: RefObject<HTMLElement | null> }) {
  const bridge = useBridge();
  const { t, locale } = useWords();
  const [reading, setReading] = useState<{ loading: boolean; error: string | null }>({ loading: false, error: null });
  // The area's scroll distance from its bottom before the earlier turns came: kept, so the view does not jump.
  const fromBottom = useRef<number | null>(null);
  const page = task.page;

  useLayoutEffect(() => {
    const element = area.current;
    if (fromBottom.current === null || !element) return;
    element.scrollTop = element.scrollHeight - fromBottom.current;
    fromBottom.current = null;
  }, [area, page?.from]);

  if (!page || page.from === 0) return null;
  const from = Math.max(0, page.from - HISTORY_PAGE_TURNS);
  const readEarlier = async () => {
    setReading({ loading: true, error: null });
    try {
      const reply = await bridge.call('history.turns', { id: task.id, from, count: page.from - from });
      const element = area.current;
      if (element) fromBottom.current = element.scrollHeight - element.scrollTop;
      showLonger(withEarlierTurns(task, reply));
      setReading({ loading: false, error: null });
    } catch (error) {
      setReading({ loading: false, error: error instanceof Error ? error.message : String(error) });
    }
  };
  return (
    <div className="earlier-turns" data-testid="earlier-turns">
      <p className="muted">{t('app:timeline.notShown', { last: formatCount(page.from, locale), total: formatCount(page.turnCount, locale) })}</p>
      <button type="button" className="button secondary" disabled={reading.loading} onClick={() => void readEarlier()}>
        {reading.loading ? t('app:timeline.loadingEarlier') : t('app:timeline.earlier', { count: page.from - from })}
      </button>
      {reading.error && (
        <p className="error" role="alert">
          {t('app:timeline.earlierFailed', { reason: reading.error })}
        </p>
      )}
    </div>
  );
}
