import { useEffect, useMemo, useState, type KeyboardEvent } from 'react';
import { taskVerdict } from '../../../../shared/verdict';
import type { DamagedHistoryFile, TaskSummary } from '../../../../shared/contract';
import type { TaskRecord } from '../../../../shared/task';
import { useBridge } from '../../bridge-context';
import { downloadText } from '../../lib/download';
import { failureWordsOf } from '../../../../shared/task-failure';
import { wordSaid } from '../../../../shared/said';
import { saidWords } from '../../../../shared/supervision-words';
import type { Words } from '../../../../shared/i18n/translate';
import { formatDuration, lookedOnlyNote, taskOutcomeKind, taskOutcomeWord } from '../../../../shared/task-words';
import { useWords } from '../../i18n/use-words';

import { formatTime, formatTokenCount, formatTokens, formatWhen } from '../../lib/format';
import { reportError } from '../../store/app-store';
import { knownPhoneName, useDevicesStore } from '../../store/devices-store';
import { useHistoryStore } from '../../store/history-store';
import { isRunning, useTaskStore } from '../../store/task-store';
import { TaskSupervision } from '../supervision/TaskSupervision';
import { UsageMeter } from '../supervision/UsageMeter';
import { TaskTimeline } from '../timeline/TaskTimeline';
import { matchesFilter, modelOf, NO_FILTER, type HistoryFilter } from './history-filter';
import { HistoryFilters } from './HistoryFilters';
import { groupByLaunch } from './launch-groups';
import { withLiveProgress } from './live-summary';
import { REPLAY_FIX_WORDS, REPLAY_WORDS, replayable, useRunAgain } from './use-run-again';
import { RowMenu, type RowMenuItem } from './RowMenu';
import { askConfirm } from '../../store/confirm-store';

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
function DamagedFiles({ files, words }: { files: DamagedHistoryFile[]; words: Words }) {
  if (files.length === 0) return null;
  const { t } = words;
  return (
    <section className="banner warning damaged-files" role="status" aria-label={t('app:history.damagedLabel')} data-testid="history-damaged">
      <p>{t('app:history.damaged', { count: files.length })}</p>
      <ul>
        {files.map((file) => (
          <li key={file.fileName}>
            <code>{file.fileName}</code>
            {t('app:history.damagedWhy', { problem: saidWords(file.problem, file.problemSaid, words), action: saidWords(file.action, file.actionSaid, words) })}
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
  const deviceList = useDevicesStore((s) => s.list);
  const [filter, setFilter] = useState<HistoryFilter>(NO_FILTER);
  const { runAgain, replay, notice } = useRunAgain();
  useSlashToSearch();
  const words = useWords();
  const { t } = words;

  const exportTask = async (id: string, format: 'json' | 'html' | 'flow') => {
    try {
      const file =
        format === 'json'
          ? await bridge.call('history.exportJson', { id })
          : format === 'html'
            ? await bridge.call('history.exportHtml', { id, language: words.language })
            : await bridge.call('flows.fromTask', { id });
      downloadText(file.fileName, file.text, file.mediaType);
    } catch (error) {
      reportError(error);
    }
  };
  const remove = async (task: TaskSummary) => {
    if (!(await askConfirm(t('app:history.confirmDelete', { goal: task.goal }), t('app:history.delete')))) return;
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

  /** Who planned a task's steps: the model, or the person who recorded it. */
  // The phone by its name (a demo phone's in the window's language); its serial in the tooltip.
  const phoneOf = (serial: string) => knownPhoneName({ names, list: deviceList }, serial, words);
  const plannedBy = (task: TaskSummary) => (task.recordedByPerson ? t('app:record.recordedByYou') : modelOf(task.planner, words));
  /** What one row offers, in its menu: the same actions as an opened task's toolbar and result card. */
  const rowActions = (task: TaskSummary): RowMenuItem[] => {
    const canReplay = replayable(task, task.steps);
    return [
      { text: t('app:history.runAgain'), label: t('app:history.runAgainLabel', { goal: task.goal }), onSelect: () => void runAgain(task) },
      ...(canReplay
        ? [
            { text: t(REPLAY_WORDS), label: t('app:history.replayLabel', { goal: task.goal }), onSelect: () => void replay(task) },
            { text: t(REPLAY_FIX_WORDS), label: t('app:history.replayFixLabel', { goal: task.goal }), title: t('app:history.replayFixTitle'), onSelect: () => void replay(task, true) },
          ]
        : []),
      ...(taskVerdict(task) === 'done'
        ? [{ text: t('app:history.saveFlow'), label: t('app:history.saveFlowLabel', { goal: task.goal }), title: t('app:history.saveFlowTitle'), onSelect: () => void exportTask(task.id, 'flow') }]
        : []),
      { text: t('app:history.exportHtml'), label: t('app:history.htmlLabel', { goal: task.goal }), onSelect: () => void exportTask(task.id, 'html') },
      { text: t('app:history.exportJson'), label: t('app:history.jsonLabel', { goal: task.goal }), onSelect: () => void exportTask(task.id, 'json') },
      { text: t('app:history.delete'), label: t('app:history.deleteLabel', { goal: task.goal }), danger: true, onSelect: () => void remove(task) },
    ];
  };

  if (opened) {
    return (
      <div className="history-detail" data-testid="history-detail">
        <div className="history-toolbar">
          <button type="button" className="button secondary" onClick={() => open(null)}>
            {t('app:history.allTasks')}
          </button>
          <button type="button" className="button secondary" onClick={() => void exportTask(opened.id, 'json')}>
            {t('app:history.exportJson')}
          </button>
          <button type="button" className="button secondary" onClick={() => void exportTask(opened.id, 'html')}>
            {t('app:history.exportHtml')}
          </button>
          {taskVerdict(opened) === 'done' && (
            <button type="button" className="button secondary" onClick={() => void exportTask(opened.id, 'flow')} title={t('app:history.saveFlowTitle')}>
              {t('app:history.saveFlow')}
            </button>
          )}
          <button type="button" className="button secondary" onClick={() => void runAgain(opened)}>
            {t('app:history.runAgain')}
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
  if (!tasks) return <p className="muted">{t('app:history.loading')}</p>;
  if (tasks.length === 0) {
    return (
      <>
        <DamagedFiles files={damaged} words={words} />
        <p className="empty" data-testid="history-empty">
          {t('app:history.empty')}
        </p>
      </>
    );
  }
  const shown = tasks.filter((task) => matchesFilter(task, filter));
  const row = (task: TaskSummary, inLaunch: boolean) => (
    <tr key={task.id} data-testid="history-row" data-task-id={task.id} className={inLaunch ? 'in-launch' : undefined}>
      <td className="history-goal-cell">
        <button type="button" className="button link history-open" onClick={() => void openTask(task.id)} aria-label={t('app:history.open', { goal: task.goal })} title={task.goal}>
          <span className="history-goal">{task.goal}</span>
        </button>
      </td>
      <td>
        <span className={`status verdict-${taskOutcomeKind(task)}`} data-testid="history-verdict" data-verdict={taskOutcomeKind(task)} title={verdictTitle(task, words)}>
          {taskOutcomeWord(task, words)}
        </span>
      </td>
      <td className="history-meta" title={`${phoneOf(task.serial) ? `${phoneOf(task.serial)} (${task.serial})` : task.serial} · ${plannedBy(task)}`} data-testid="history-phone">
        {phoneOf(task.serial) ?? task.serial} · <span data-testid="history-model">{plannedBy(task)}</span>
      </td>
      <td className="history-started" data-testid="history-started" title={formatTime(task.createdAt, words)}>
        {formatWhen(task.createdAt, words, now)}
      </td>
      <td className="number history-steps">{task.steps}</td>
      <td className="number" title={formatTokens(task.usage, words)} data-testid="history-cost">
        {formatDuration(task.durationMs, undefined, words)} · {formatTokenCount(task.usage, words)}
      </td>
      <td className="row-actions">
        <RowMenu label={t('app:history.actionsFor', { goal: task.goal })} items={rowActions(task)} />
      </td>
    </tr>
  );
  return (
    <div className="history-list">
      <DamagedFiles files={damaged} words={words} />
      <HistoryFilters tasks={tasks} filter={filter} onChange={setFilter} shown={shown.length} />
      {notice && (
        <p className="banner warning" role="status" data-testid="run-again-notice">
          {notice}
        </p>
      )}
      {shown.length === 0 ? (
        <p className="empty" data-testid="history-no-match">
          {t('app:history.noMatch')}{' '}
          <button type="button" className="button link" onClick={() => setFilter(NO_FILTER)}>
            {t('app:history.showAll')}
          </button>
        </p>
      ) : (
        <table className="history-table one-line" data-testid="history-table" onKeyDown={onTableKeyDown}>
          <caption className="visually-hidden">{t('app:history.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('app:history.goal')}</th>
              <th scope="col">{t('app:history.status')}</th>
              <th scope="col">{t('app:history.phone')}</th>
              <th scope="col">{t('app:history.started')}</th>
              <th scope="col" className="history-steps">{t('app:history.steps')}</th>
              <th scope="col">
                {t('app:history.duration')}
                <span className="history-roomy">{t('app:history.andTokens')}</span>
              </th>
              <th scope="col">
                <span className="visually-hidden">{t('app:history.actions')}</span>
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
  const words = useWords();
  const done = tasks.filter((task) => taskOutcomeKind(task) === 'done').length;
  const started = Math.min(...tasks.map((task) => task.createdAt));
  return (
    <tr className="launch-group-row" data-testid="history-launch">
      <th scope="rowgroup" colSpan={7}>
        {words.t('app:history.launch', { count: tasks.length, done, time: formatTime(started, words) })}
      </th>
    </tr>
  );
}

/** What a row's verdict rests on, on hover: the reason it failed or stopped, why it is not verified, or that the planner only looked. */
function verdictTitle(task: TaskSummary, words: Words): string | undefined {
  const failed = task.failureReason ? failureWordsOf(task) : null;
  if (failed !== null) return saidWords(failed, task.failureSaid, words);
  if (task.verification?.status === 'not-verified') return wordSaid(task.verification.fact, task.verification.said, words);
  return taskOutcomeKind(task) === 'looked-only' ? lookedOnlyNote(words) : undefined;
}
