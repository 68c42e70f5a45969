import type { TaskSummary } from '../../../../shared/contract';
import { nameOfSerial, useDevicesStore } from '../../store/devices-store';
import { isFiltered, NO_FILTER, type HistoryFilter } from './history-filter';
import { STATUS_WORDS } from './status-words';

interface Props {
  tasks: TaskSummary[];
  filter: HistoryFilter;
  onChange(filter: HistoryFilter): void;
  shown: number;
}

/** Search by goal and narrow by status, phone and planner ("/" focuses the search). */
export function HistoryFilters({ tasks, filter, onChange, shown }: Props) {
  const names = useDevicesStore((s) => s.names);
  const serials = [...new Set(tasks.map((task) => task.serial))];
  const set = (change: Partial<HistoryFilter>) => onChange({ ...filter, ...change });
  return (
    <div className="history-filters" role="search" aria-label="Find past tasks">
      <input
        id="history-search"
        type="search"
        placeholder="Search goals ( / )"
        aria-label="Search goals"
        aria-keyshortcuts="/"
        value={filter.text}
        onChange={(event) => set({ text: event.target.value })}
      />
      <select aria-label="Status" value={filter.status} onChange={(event) => set({ status: event.target.value as HistoryFilter['status'] })}>
        <option value="any">Any status</option>
        {(['completed', 'failed', 'cancelled', 'running'] as const).map((status) => (
          <option key={status} value={status}>
            {STATUS_WORDS[status]}
          </option>
        ))}
      </select>
      <select aria-label="Phone" value={filter.serial} onChange={(event) => set({ serial: event.target.value })}>
        <option value="any">Any phone</option>
        {serials.map((serial) => (
          <option key={serial} value={serial}>
            {nameOfSerial({ names }, serial)}
          </option>
        ))}
      </select>
      <select aria-label="Planner" value={filter.planner} onChange={(event) => set({ planner: event.target.value as HistoryFilter['planner'] })}>
        <option value="any">Any planner</option>
        <option value="ai">AI planner</option>
        <option value="stub">Built-in planner</option>
      </select>
      {isFiltered(filter) && (
        <>
          <span className="muted small" role="status" data-testid="history-count">
            {shown} of {tasks.length}
          </span>
          <button type="button" className="button link" onClick={() => onChange(NO_FILTER)}>
            Clear
          </button>
        </>
      )}
    </div>
  );
}
