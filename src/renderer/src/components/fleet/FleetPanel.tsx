import { useEffect, useState } from 'react';
import type { FleetViewResult } from '../../../../shared/contract';
import type { JobView } from '../../../../shared/fleet';
import { formatCount, formatDuration } from '../../../../shared/task-words';
import { useBridge } from '../../bridge-context';
import { useAppStore } from '../../store/app-store';

/** How often the view reads the fleet again while it is open (workers report every 2 s). */
const REFRESH_MS = 3000;

/** The fleet on the Redis set in Settings: workers, their phones, jobs and interruptions, as `amc fleet` shows them. */
export function FleetPanel() {
  const bridge = useBridge();
  const [view, setView] = useState<FleetViewResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
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
  if (!view) return <p className="muted">Reading the fleet…</p>;
  if (view.kind === 'not-set') {
    return (
      <p className="empty" data-testid="fleet-not-set">
        No fleet yet. Set the Fleet Redis URL in{' '}
        <button type="button" className="button link" onClick={() => useAppStore.getState().toggleSettings(true)}>
          Settings
        </button>{' '}
        (Fleet) to see the workers, their phones and jobs of <code>amc worker</code> and <code>amc submit</code>.
      </p>
    );
  }
  if (view.kind === 'problem') {
    return (
      <p className="field-problem" role="alert" data-testid="fleet-problem">
        {view.address ? `${view.address}: ` : ''}
        {view.problem}
      </p>
    );
  }
  const { overview } = view;
  const { counts } = overview;
  return (
    <div className="fleet-panel" data-testid="fleet-panel">
      <p className="muted small">
        Redis <span data-testid="fleet-address">{view.address}</span> · jobs: <span data-testid="fleet-counts">{counts.queued ?? 0} queued, {counts.running ?? 0} running, {counts.finished ?? 0} finished, {counts.failed ?? 0} failed, {counts.interrupted ?? 0} interrupted</span>
      </p>
      {overview.workers.length === 0 && <p className="empty">No worker has joined this fleet (start one with amc worker).</p>}
      <ul className="fleet-workers">
        {overview.workers.map((worker) => (
          <li key={worker.name} data-testid="fleet-worker" data-name={worker.name}>
            <strong>{worker.name}</strong> on {worker.host}
            {!worker.alive && <span className="status status-failed"> — gone (no report for a while)</span>}
            <ul className="fleet-phones">
              {worker.phones.map((phone) => {
                const state = worker.alive ? phone.state : 'offline';
                return (
                  <li key={phone.serial} data-testid="fleet-phone" data-serial={phone.serial}>
                    {phone.serial} · <span className={`fleet-state fleet-${state}`} data-testid="fleet-phone-state">{state}</span>
                    {phone.groups.length > 0 && <span className="muted"> · groups: {phone.groups.join(', ')}</span>}
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
              <th scope="col">Goal</th>
              <th scope="col">State</th>
              <th scope="col">Phone</th>
              <th scope="col">Result</th>
            </tr>
          </thead>
          <tbody>
            {overview.jobs.map((job) => (
              <tr key={`${job.queue}/${job.id}`} data-testid="fleet-job" data-job-id={job.id}>
                <td className="fleet-goal">{job.goal}</td>
                <td>
                  <span className={`status status-${job.state === 'finished' ? 'completed' : job.state === 'interrupted' ? 'cancelled' : job.state}`} data-testid="fleet-job-state">
                    {job.state}
                  </span>
                </td>
                <td className="fleet-goal">{job.result?.serial ?? job.target}</td>
                <td className="fleet-goal">{resultWords(job)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

/** A job's end in the words `amc fleet` uses: outcome, steps, tokens, time, worker, and where it was interrupted before. */
function resultWords(job: JobView): string {
  const result = job.result;
  if (!result) return job.reason ?? '';
  const outcome = result.status === 'completed' ? (result.verified ? 'done' : 'done, not verified') : result.status;
  const interrupted = result.interruptedOn.length ? `; interrupted before on ${result.interruptedOn.join(', ')}` : '';
  return `${outcome}${result.failureReason ? ` — ${result.failureReason}` : ''} (${formatCount(result.steps)} steps, ${formatCount(result.inputTokens + result.outputTokens)} tokens, ${formatDuration(result.durationMs)}, on ${result.worker}${interrupted})`;
}
