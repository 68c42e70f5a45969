import type { LaunchStarted } from '../../../../shared/contract';
import { FINISHED_OUTCOME_WORDS } from '../../../../shared/launch';
import { formatUsd } from '../../../../shared/prices';
import { formatCount, formatDuration } from '../../../../shared/task-words';
import { nameOfSerial, useDevicesStore } from '../../store/devices-store';
import { useLaunchRows } from './use-launch-rows';

/** The launch's results: one row per phone (outcome, steps, tokens, cost, time), the reason under a phone that did not succeed. */
export function LaunchResults({ launch }: { launch: LaunchStarted }) {
  const rows = useLaunchRows(launch);
  const names = useDevicesStore((s) => s.names);
  const done = rows.filter((row) => row.outcome === 'done').length;
  const ended = rows.filter((row) => row.outcome !== null).length;
  return (
    <section className="launch-results" aria-label="Results">
      <h3 className="launch-heading">
        “{launch.goal}” — <span data-testid="launch-summary">{ended < rows.length ? `${ended} of ${rows.length} finished` : `${done} of ${rows.length} done`}</span>
      </h3>
      <table className="history-table" data-testid="launch-results">
        <thead>
          <tr>
            <th scope="col">Phone</th>
            <th scope="col">Outcome</th>
            <th scope="col">Steps</th>
            <th scope="col">Tokens</th>
            <th scope="col">Cost</th>
            <th scope="col">Time</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.serial} data-testid="launch-row" data-serial={row.serial}>
              <th scope="row">
                {nameOfSerial({ names }, row.serial)}
                <span className="launch-serial">{row.serial}</span>
              </th>
              <td>
                <span className={`status status-${row.outcome === 'done' ? 'completed' : row.outcome === 'stopped' ? 'cancelled' : (row.outcome ?? 'running')}`} data-testid="launch-outcome">
                  {row.outcome ? FINISHED_OUTCOME_WORDS[row.outcome] : 'running'}
                </span>
                {row.outcome !== 'done' && row.outcome !== null && row.reason && <span className="launch-reason">{row.reason}</span>}
              </td>
              <td>{formatCount(row.steps)}</td>
              <td>{formatCount(row.tokens)}</td>
              <td>{row.costUsd === null ? '—' : formatUsd(row.costUsd)}</td>
              <td>{formatDuration(row.durationMs)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
