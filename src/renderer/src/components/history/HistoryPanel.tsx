import { useEffect, useMemo, useState } from 'react';
import type { DamagedHistoryFile, TaskSummary } from '../../../../shared/contract';
import type { TaskRecord } from '../../../../shared/task';
import { useBridge } from '../../bridge-context';
import { downloadText } from '../../lib/download';
import { plainReason } from '../../../../shared/plain-words';
import { LOOKED_ONLY_NOTE, taskOutcomeKind, taskOutcomeWord } from '../../../../shared/task-words';
import { formatDuration, formatTime, formatTokens } from '../../lib/format';
import { reportError } from '../../store/app-store';
import { useHistoryStore } from '../../store/history-store';
import { isRunning, useTaskStore } from '../../store/task-store';
import { TaskTimeline } from '../timeline/TaskTimeline';
import { withLiveProgress } from './live-summary';


/** The current time, ticking every second while `active` (a running task's duration keeps growing). */
function useNow(active: boolean): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    if (!active) return undefined;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [active]);
  return active ? Math.max(now, Date.now()) : now;
}

/** History files that could not be read: never hidden, each with what to do. */
function DamagedFiles({ files }: { files: DamagedHistoryFile[] }) {
  if (files.length === 0) return null;
  return (
    <section className="banner warning damaged-files" role="status" aria-label="Damaged history files" data-testid="history-damaged">
      <p>
        {files.length === 1 ? 'One history file' : `${files.length} history files`} could not be read:
      </p>
      <ul>
        {files.map((file) => (
          <li key={file.fileName}>
            <code>{file.fileName}</code>: {file.problem}. {file.action}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Past tasks, newest first; open one to read its timeline, export it, or delete it. */
export function HistoryPanel() {
  const bridge = useBridge();
  const tasks = useHistoryStore((s) => s.tasks);
  const damaged = useHistoryStore((s) => s.damaged);
  const opened = useHistoryStore((s) => s.opened);
  const open = useHistoryStore((s) => s.open);
  // A task still running when opened keeps growing here, as on the Current task tab.
  const live = useTaskStore((s) => (opened ? Object.values(s.bySerial).find((entry) => entry.task.id === opened.id)?.task : undefined));
  // The tasks this window follows live (one per phone), by id: their rows show progress as events arrive.
  const bySerial = useTaskStore((s) => s.bySerial);
  const followed = useMemo(() => new Map<string, TaskRecord>(Object.values(bySerial).map((entry) => [entry.task.id, entry.task])), [bySerial]);
  const now = useNow(!opened && (tasks ?? []).some((task) => isRunning(followed.get(task.id))));

  const exportTask = async (id: string, format: 'json' | 'html') => {
    try {
      const file = await bridge.call(format === 'json' ? 'history.exportJson' : 'history.exportHtml', { id });
      downloadText(file.fileName, file.text, file.mediaType);
    } catch (error) {
      reportError(error);
    }
  };
  const remove = async (task: TaskSummary) => {
    if (!window.confirm(`Delete the task "${task.goal}" and its timeline?`)) return;
    try {
      await bridge.call('history.delete', { id: task.id });
      if (useHistoryStore.getState().opened?.id === task.id) open(null);
    } catch (error) {
      reportError(error);
    }
  };
  const openTask = async (id: string) => {
    try {
      open(await bridge.call('history.get', { id }));
    } catch (error) {
      reportError(error);
    }
  };

  if (opened) {
    return (
      <div className="history-detail">
        <div className="history-toolbar">
          <button type="button" className="button secondary" onClick={() => open(null)}>
            ← All tasks
          </button>
          <button type="button" className="button secondary" onClick={() => void exportTask(opened.id, 'json')}>
            Export JSON
          </button>
          <button type="button" className="button secondary" onClick={() => void exportTask(opened.id, 'html')}>
            Export HTML report
          </button>
        </div>
        <TaskTimeline task={live ?? opened} />
      </div>
    );
  }
  if (!tasks) return <p className="muted">Loading history…</p>;
  if (tasks.length === 0) {
    return (
      <>
        <DamagedFiles files={damaged} />
        <p className="empty" data-testid="history-empty">No tasks yet. Tasks you run are kept here.</p>
      </>
    );
  }
  return (
    <>
    <DamagedFiles files={damaged} />
    <table className="history-table" data-testid="history-table">
      <caption className="visually-hidden">Past tasks, newest first</caption>
      <thead>
        <tr>
          <th scope="col">Goal</th>
          <th scope="col">Phone</th>
          <th scope="col">Status</th>
          <th scope="col">Steps</th>
          <th scope="col">Duration</th>
          <th scope="col">Tokens</th>
          <th scope="col">Started</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {tasks.map((stored) => withLiveProgress(stored, followed.get(stored.id), now)).map((task) => (
          <tr key={task.id} data-testid="history-row" data-task-id={task.id}>
            <td>
              <button type="button" className="button link" onClick={() => void openTask(task.id)} aria-label={`Open "${task.goal}"`} title={task.goal}>
                <span className="history-goal">{task.goal}</span>
              </button>
            </td>
            <td>
              <code>{task.serial}</code>
            </td>
            <td>
              <span className={`status status-${taskOutcomeKind(task) === 'looked-only' ? 'neutral' : task.status}`} title={task.failureReason ? plainReason(task.failureReason) : taskOutcomeKind(task) === 'looked-only' ? LOOKED_ONLY_NOTE : undefined}>
                {taskOutcomeWord(task)}
              </span>
            </td>
            <td>{task.steps}</td>
            <td>{formatDuration(task.durationMs)}</td>
            <td>{formatTokens(task.usage)}</td>
            <td>{formatTime(task.createdAt)}</td>
            <td className="row-actions">
              <button type="button" className="button link" onClick={() => void exportTask(task.id, 'json')} aria-label={`Export "${task.goal}" as JSON`}>
                JSON
              </button>
              <button type="button" className="button link" onClick={() => void exportTask(task.id, 'html')} aria-label={`Export "${task.goal}" as HTML report`}>
                HTML
              </button>
              <button type="button" className="button link danger" onClick={() => void remove(task)} aria-label={`Delete "${task.goal}"`}>
                Delete
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
    </>
  );
}
