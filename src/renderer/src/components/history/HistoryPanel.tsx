import { useEffect, useMemo, useState, type KeyboardEvent } from 'react';
import type { DamagedHistoryFile, TaskSummary } from '../../../../shared/contract';
import type { TaskRecord } from '../../../../shared/task';
import { useBridge } from '../../bridge-context';
import { downloadText } from '../../lib/download';
import { plainReason } from '../../../../shared/plain-words';
import { formatDuration, LOOKED_ONLY_NOTE, taskOutcomeKind, taskOutcomeWord } from '../../../../shared/task-words';
import { formatTime, formatTokens } from '../../lib/format';
import { reportError } from '../../store/app-store';
import { nameOfSerial, useDevicesStore } from '../../store/devices-store';
import { useHistoryStore } from '../../store/history-store';
import { isRunning, useTaskStore } from '../../store/task-store';
import { TaskSupervision } from '../supervision/TaskSupervision';
import { UsageMeter } from '../supervision/UsageMeter';
import { TaskTimeline } from '../timeline/TaskTimeline';
import { matchesFilter, modelOf, NO_FILTER, type HistoryFilter } from './history-filter';
import { HistoryFilters } from './HistoryFilters';
import { groupByLaunch } from './launch-groups';
import { withLiveProgress } from './live-summary';
import { REPLAY_WORDS, replayable, useRunAgain } from './use-run-again';

/** ↑/↓ (and Home/End) move between the rows' goal buttons, Enter opens; "/" goes to the search box. */
function onTableKeyDown(event: KeyboardEvent<HTMLTableElement>) {
  const goals = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('button.history-open')];
  const at = goals.indexOf(document.activeElement as HTMLButtonElement);
  const next = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: goals.length - 1 }[event.key];
  if (next === undefined || at < 0) return;
  event.preventDefault();
  goals[Math.min(Math.max(next, 0), goals.length - 1)]?.focus();
}

/** "/" anywhere on the History tab (outside a field) puts the cursor in the search box. */
function useSlashToSearch() {
  useEffect(() => {
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (event.key !== '/' || event.defaultPrevented || target?.closest('input, textarea, select, [contenteditable="true"]')) return;
      const search = document.getElementById('history-search');
      if (!search) return;
      event.preventDefault();
      search.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}

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
  const names = useDevicesStore((s) => s.names);
  const [filter, setFilter] = useState<HistoryFilter>(NO_FILTER);
  const { runAgain, replay, notice } = useRunAgain();
  useSlashToSearch();

  const exportTask = async (id: string, format: 'json' | 'html' | 'flow') => {
    try {
      const file = await bridge.call(format === 'json' ? 'history.exportJson' : format === 'html' ? 'history.exportHtml' : 'flows.fromTask', { id });
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
      <div className="history-detail" data-testid="history-detail">
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
          {opened.status === 'completed' && (
            <button type="button" className="button secondary" onClick={() => void exportTask(opened.id, 'flow')} title="A flow file (YAML) to read, edit and run again">
              Save as flow
            </button>
          )}
          <button type="button" className="button secondary" onClick={() => void runAgain(opened)}>
            Run again
          </button>
        </div>
        {notice && (
          <p className="banner warning" role="status" data-testid="run-again-notice">
            {notice}
          </p>
        )}
        <UsageMeter task={live ?? opened} />
        <TaskTimeline task={live ?? opened} after={<TaskSupervision task={live ?? opened} />} />
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
  const shown = tasks.filter((task) => matchesFilter(task, filter));
  const row = (task: TaskSummary, inLaunch: boolean) => (
              <tr key={task.id} data-testid="history-row" data-task-id={task.id} className={inLaunch ? 'in-launch' : undefined}>
                <td>
                  <button type="button" className="button link history-open" onClick={() => void openTask(task.id)} aria-label={`Open "${task.goal}"`} title={task.goal}>
                    <span className="history-goal">{task.goal}</span>
                  </button>
                  {/* Phone, model and start under the goal: as columns they pushed the row's actions out of sight at 1280 px. */}
                  <span className="history-meta">
                    <span title={task.serial}>{nameOfSerial({ names }, task.serial)}</span> · <span data-testid="history-model">{modelOf(task.planner)}</span> ·{' '}
                    <span className="history-started" data-testid="history-started">
                      {formatTime(task.createdAt)}
                    </span>
                  </span>
                </td>
                <td>
                  <span className={`status status-${taskOutcomeKind(task) === 'looked-only' ? 'neutral' : task.status}`} title={task.failureReason ? plainReason(task.failureReason) : taskOutcomeKind(task) === 'looked-only' ? LOOKED_ONLY_NOTE : undefined}>
                    {taskOutcomeWord(task)}
                  </span>
                </td>
                <td>{task.steps}</td>
                <td>{formatDuration(task.durationMs)}</td>
                <td>{formatTokens(task.usage)}</td>
                <td className="row-actions">
                  <button type="button" className="button link" onClick={() => void runAgain(task)} aria-label={`Run "${task.goal}" again`}>
                    Run again
                  </button>
                  {replayable(task, task.steps) && (
                    <button type="button" className="button link" onClick={() => void replay(task)} aria-label={`${REPLAY_WORDS}: "${task.goal}"`}>
                      Replay
                    </button>
                  )}
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
  );
  return (
    <div className="history-list">
      <DamagedFiles files={damaged} />
      <HistoryFilters tasks={tasks} filter={filter} onChange={setFilter} shown={shown.length} />
      {notice && (
        <p className="banner warning" role="status" data-testid="run-again-notice">
          {notice}
        </p>
      )}
      {shown.length === 0 ? (
        <p className="empty" data-testid="history-no-match">
          No past task matches. <button type="button" className="button link" onClick={() => setFilter(NO_FILTER)}>Show all</button>
        </p>
      ) : (
        <table className="history-table" data-testid="history-table" onKeyDown={onTableKeyDown}>
          <caption className="visually-hidden">Past tasks, newest first. Up and down arrows move between tasks, Enter opens one.</caption>
          <thead>
            <tr>
              <th scope="col">Goal</th>
              <th scope="col">Status</th>
              <th scope="col">Steps</th>
              <th scope="col">Duration</th>
              <th scope="col">Tokens</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {groupByLaunch(shown.map((stored) => withLiveProgress(stored, followed.get(stored.id), now))).flatMap((group) => [
              ...(group.launchId ? [<LaunchHeaderRow key={`launch-${group.launchId}`} tasks={group.tasks} />] : []),
              ...group.tasks.map((task) => row(task, group.launchId !== null)),
            ])}
          </tbody>
        </table>
      )}
    </div>
  );
}

/** The heading of one launch's tasks: the goal ran on several phones at once, and how many were done. */
function LaunchHeaderRow({ tasks }: { tasks: TaskSummary[] }) {
  const done = tasks.filter((task) => taskOutcomeKind(task) === 'done').length;
  const started = Math.min(...tasks.map((task) => task.createdAt));
  return (
    <tr className="launch-group-row" data-testid="history-launch">
      <th scope="rowgroup" colSpan={6}>
        One goal on {tasks.length} {tasks.length === 1 ? 'phone' : 'phones'} · {done} of {tasks.length} done · {formatTime(started)}
      </th>
    </tr>
  );
}
