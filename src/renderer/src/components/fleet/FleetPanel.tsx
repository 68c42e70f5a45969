import { useEffect, useState } from 'react';
import type { FleetViewResult } from '../../../../shared/contract';
import { jobCountWords, jobVerdict, targetWords, type JobView } from '../../../../shared/fleet';
import { stepsPassed } from '../../../../shared/flow';
import { formatCount, formatDuration, outcomeWord } from '../../../../shared/task-words';
import { saidWords } from '../../../../shared/supervision-words';
import { wordSaid } from '../../../../shared/said';
import { failureWordsOf } from '../../../../shared/task-failure';
import { useBridge } from '../../bridge-context';
import type { Words } from '../../../../shared/i18n/translate';
import { useWords } from '../../i18n/use-words';
import { useAppStore } from '../../store/app-store';

/** How often the view reads the fleet again while it is open (workers report every 2 s). */
const REFRESH_MS = 3000;

/** The fleet on the Redis set in Settings: workers, their phones, jobs and interruptions, as `amc fleet` shows them. */
export function FleetPanel() {
  const bridge = useBridge();
  const [view, setView] = useState<FleetViewResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const words = useWords();
  const { t } = words;
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = () =>
      bridge
        .call('fleet.overview', {})
        .then((next) => {
          setView(next);
          setFailure(null);
        })
        .catch((error: unknown) => setFailure(error instanceof Error ? error.message : String(error)))
        .finally(() => {
          if (!stopped) timer = setTimeout(read, REFRESH_MS);
        });
    void read();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [bridge]);

  if (failure) return <p className="field-problem" role="alert">{failure}</p>;
  if (!view) return <p className="muted">{t('app:fleet.reading')}</p>;
  if (view.kind === 'not-set') {
    return (
      <p className="empty" data-testid="fleet-not-set">
        {t('app:fleet.notSetBefore')}{' '}
        <button type="button" className="button link" onClick={() => useAppStore.getState().toggleSettings(true)}>
          {t('app:fleet.settings')}
        </button>{' '}
        {t('app:fleet.notSetAfter', { worker: 'amc worker', submit: 'amc submit' })}
      </p>
    );
  }
  if (view.kind === 'problem') {
    return (
      <p className="field-problem" role="alert" data-testid="fleet-problem">
        {view.address ? `${view.address}: ` : ''}
        {saidWords(view.problem, view.problemSaid, words)}
      </p>
    );
  }
  const { overview } = view;
  const { counts } = overview;
  return (
    <div className="fleet-panel" data-testid="fleet-panel">
      <p className="muted small">
        {t('app:fleet.redis')} <span data-testid="fleet-address">{view.address}</span> · {t('app:fleet.jobs')}{' '}
        <span data-testid="fleet-counts">
          {jobCountWords(counts, words)}
        </span>
      </p>
      {overview.workers.length === 0 && <p className="empty">{t('app:fleet.noWorker')}</p>}
      <ul className="fleet-workers">
        {overview.workers.map((worker) => (
          <li key={worker.name} data-testid="fleet-worker" data-name={worker.name}>
            <strong>{worker.name}</strong> {t('app:fleet.on', { host: worker.host })}
            {!worker.alive && <span className="status status-failed"> {t('app:fleet.gone')}</span>}
            <ul className="fleet-phones">
              {worker.phones.map((phone) => {
                const state = worker.alive ? phone.state : 'offline';
                return (
                  <li key={phone.serial} data-testid="fleet-phone" data-serial={phone.serial}>
                    {phone.serial} · <span className={`fleet-state fleet-${state}`} data-testid="fleet-phone-state">{t(`app:fleet.phoneState.${state}`)}</span>
                    {phone.groups.length > 0 && <span className="muted"> · {t('app:fleet.groups', { groups: phone.groups.join(t('common:listSeparator')) })}</span>}
                  </li>
                );
              })}
            </ul>
          </li>
        ))}
      </ul>
      {overview.jobs.length > 0 && (
        <table className="history-table" data-testid="fleet-jobs">
          <thead>
            <tr>
              <th scope="col">{t('app:fleet.col.goal')}</th>
              <th scope="col">{t('app:fleet.col.state')}</th>
              <th scope="col">{t('app:fleet.col.phone')}</th>
              <th scope="col">{t('app:fleet.col.result')}</th>
            </tr>
          </thead>
          <tbody>
            {overview.jobs.map((job) => (
              <tr key={`${job.queue}/${job.id}`} data-testid="fleet-job" data-job-id={job.id}>
                <td className="fleet-goal">{job.flow === null ? wordSaid(job.goal, job.goalSaid, words) : t('app:fleet.flowJob', { name: job.flow })}</td>
                <td>
                  <span className={`status status-${job.state === 'finished' ? 'completed' : job.state === 'interrupted' ? 'cancelled' : job.state}`} data-testid="fleet-job-state">
                    {t(`app:fleet.jobState.${job.state}`)}
                  </span>
                </td>
                <td className="fleet-goal">{job.result?.serial ?? targetWords(job.target, words)}</td>
                <td className="fleet-goal">{resultWords(job, words)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

/** A job's end in the words `amc fleet` uses: outcome, steps, tokens, time, worker, and where it was interrupted before. */
function resultWords(job: JobView, words: Words): string {
  const { t, locale } = words;
  const result = job.result;
  if (!result) return job.reason === null ? '' : saidWords(job.reason, job.reasonSaid, words);
  const verdict = jobVerdict(job);
  const outcome = verdict ? outcomeWord(verdict, words) : t(`app:fleet.jobState.${job.state}`);
  const interrupted = result.interruptedOn.length ? t('app:fleet.interruptedBefore', { phones: result.interruptedOn.join(', ') }) : '';
  const steps = result.flowSteps;
  const flowSteps = steps ? t('app:fleet.flowSteps', { passed: stepsPassed(steps), count: steps.length }) : '';
  return t('app:fleet.result', {
    outcome,
    reason: result.failureReason ? ` — ${saidWords(failureWordsOf(result) ?? '', result.failureSaid, words)}` : '',
    steps: formatCount(result.steps, locale),
    tokens: formatCount(result.inputTokens + result.outputTokens, locale),
    duration: formatDuration(result.durationMs, undefined, words),
    worker: result.worker,
    interrupted: interrupted + flowSteps,
  });
}
