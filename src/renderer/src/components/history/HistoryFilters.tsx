import type { TaskSummary } from '../../../../shared/contract';
import { nameOfSerial, useDevicesStore } from '../../store/devices-store';
import { isFiltered, NO_FILTER, type HistoryFilter } from './history-filter';
import { outcomeWord } from '../../../../shared/task-words';
import { HISTORY_STATUSES } from './history-filter';
import { useWords } from '../../i18n/use-words';


interface Props {
  tasks: TaskSummary[];
  filter: HistoryFilter;
  onChange(filter: HistoryFilter): void;
  shown: number;
}

/** Search by goal and narrow by status, phone and planner ("/" focuses the search). */
export function HistoryFilters({ tasks, filter, onChange, shown }: Props) {
  const names = useDevicesStore((s) => s.names);
  const deviceList = useDevicesStore((s) => s.list);
  const serials = [...new Set(tasks.map((task) => task.serial))];
  const set = (change: Partial<HistoryFilter>) => onChange({ ...filter, ...change });
  const words = useWords();
  const { t } = words;
  return (
    <div className="history-filters" role="search" aria-label={t('app:history.findLabel')}>
      <input
        id="history-search"
        type="search"
        placeholder={t('app:history.searchPlaceholder')}
        aria-label={t('app:history.searchLabel')}
        aria-keyshortcuts="/"
        value={filter.text}
        onChange={(event) => set({ text: event.target.value })}
      />
      <select aria-label={t('app:history.status')} value={filter.status} onChange={(event) => set({ status: event.target.value as HistoryFilter['status'] })}>
        <option value="any">{t('app:history.anyStatus')}</option>
        {HISTORY_STATUSES.map((status) => (
          <option key={status} value={status}>
            {outcomeWord(status, words)}
          </option>
        ))}
      </select>
      <select aria-label={t('app:history.phone')} value={filter.serial} onChange={(event) => set({ serial: event.target.value })}>
        <option value="any">{t('app:history.anyPhone')}</option>
        {serials.map((serial) => (
          <option key={serial} value={serial}>
            {nameOfSerial({ names, list: deviceList }, serial, words)}
          </option>
        ))}
      </select>
      <select aria-label={t('app:history.planner')} value={filter.planner} onChange={(event) => set({ planner: event.target.value as HistoryFilter['planner'] })}>
        <option value="any">{t('app:history.anyPlanner')}</option>
        <option value="ai">{t('app:history.aiPlanner')}</option>
        <option value="stub">{t('app:history.builtInPlanner')}</option>
      </select>
      {isFiltered(filter) && (
        <>
          <span className="muted small" role="status" data-testid="history-count">
            {t('app:history.count', { shown, total: tasks.length })}
          </span>
          <button type="button" className="button link" onClick={() => onChange(NO_FILTER)}>
            {t('app:history.clear')}
          </button>
        </>
      )}
    </div>
  );
}
