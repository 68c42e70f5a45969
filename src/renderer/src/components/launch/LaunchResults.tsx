import type { LaunchStarted } from '../../../../shared/contract';
import { finishedOutcomeWords } from '../../../../shared/launch';
import { saidWords } from '../../../../shared/supervision-words';
import { useWords } from '../../i18n/use-words';
import { formatUsd } from '../../../../shared/prices';
import { formatCount, formatDuration } from '../../../../shared/task-words';
import { nameOfSerial, useDevicesStore } from '../../store/devices-store';
import { useLaunchRows } from './use-launch-rows';

/** The launch's results: one row per phone (outcome, steps, tokens, cost, time), the reason under a phone that did not succeed. */
export function LaunchResults({ launch }: { launch: LaunchStarted }) {
  const rows = useLaunchRows(launch);
  const names = useDevicesStore((s) => s.names);
  const words = useWords();
  const { t, locale } = words;
  const done = rows.filter((row) => row.outcome === 'done').length;
  const ended = rows.filter((row) => row.outcome !== null).length;
  return (
    <section className="launch-results" aria-label={t('app:launch.results')}>
      <h3 className="launch-heading">
        “{launch.goal}” — <span data-testid="launch-summary">{ended < rows.length ? t('app:launch.finishedOf', { ended, total: rows.length }) : t('app:launch.doneOf', { done, total: rows.length })}</span>
      </h3>
      <table className="history-table" data-testid="launch-results">
        <thead>
          <tr>
            <th scope="col">{t('app:launch.col.phone')}</th>
            <th scope="col">{t('app:launch.col.outcome')}</th>
            <th scope="col">{t('app:launch.col.steps')}</th>
            <th scope="col">{t('app:launch.col.tokens')}</th>
            <th scope="col">{t('app:launch.col.cost')}</th>
            <th scope="col">{t('app:launch.col.time')}</th>
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
                  {row.outcome ? finishedOutcomeWords(row.outcome, words) : t('common:outcome.running')}
                </span>
                {row.outcome !== 'done' && row.outcome !== null && row.reason && <span className="launch-reason">{saidWords(row.reason, row.reasonSaid, words)}</span>}
              </td>
              <td>{formatCount(row.steps, locale)}</td>
              <td>{formatCount(row.tokens, locale)}</td>
              <td>{row.costUsd === null ? t('common:unknown') : formatUsd(row.costUsd, locale)}</td>
              <td>{formatDuration(row.durationMs, undefined, words)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
