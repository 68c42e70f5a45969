import { useState } from 'react';
import type { LaunchPhones } from '../../../../shared/launch';
import { launchPhonesWords } from '../../../../shared/launch';
import { useBridge } from '../../bridge-context';
import { formatTime } from '../../lib/format';
import { reportError } from '../../store/app-store';
import { useSchedulesStore } from '../../store/schedules-store';

/**
 * The goal and phones above on a schedule ("0 8 * * *": every day at 08:00), and the schedules kept on this
 * computer. They fire while the app is open; runs due while it is closed are reported when it next starts.
 */
export function SchedulesSection({ goal, phones }: { goal: string; phones: LaunchPhones | null }) {
  const bridge = useBridge();
  const overview = useSchedulesStore((s) => s.overview);
  const setOverview = useSchedulesStore((s) => s.setOverview);
  const [name, setName] = useState('');
  const [cron, setCron] = useState('0 8 * * *');
  const [problem, setProblem] = useState<string | null>(null);
  const missing = !goal ? 'Type the goal above first.' : !phones ? 'Tick the phones or pick a device group above.' : !name.trim() ? 'Give the schedule a name.' : null;

  const add = async () => {
    if (!phones) return;
    try {
      setOverview(await bridge.call('schedules.add', { name: name.trim(), cron: cron.trim(), goal, phones }));
      setProblem(null);
      setName('');
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    }
  };
  const remove = async (scheduleName: string) => {
    try {
      setOverview(await bridge.call('schedules.remove', { name: scheduleName }));
    } catch (error) {
      reportError(error);
    }
  };

  return (
    <section className="schedules" aria-labelledby="schedules-title">
      <h3 id="schedules-title" className="launch-heading">
        Schedules
      </h3>
      <div className="schedule-form">
        <label>
          Name <input value={name} maxLength={100} placeholder="morning" onChange={(event) => setName(event.target.value)} />
        </label>
        <label>
          When (cron: minute hour day month weekday) <input value={cron} maxLength={100} onChange={(event) => setCron(event.target.value)} />
        </label>
        <button type="button" className="button secondary" disabled={missing !== null} onClick={() => void add()}>
          Add schedule
        </button>
        {missing && <span className="muted small">{missing}</span>}
      </div>
      {problem && (
        <p className="field-problem" role="alert" data-testid="schedule-problem">
          {problem}
        </p>
      )}
      <p className="muted small">“0 8 * * *” is every day at 08:00. Schedules run while this app is open; runs due while it is closed are reported when it starts.</p>
      {overview && overview.schedules.length > 0 && (
        <ul className="schedule-list" data-testid="schedule-list">
          {overview.schedules.map((schedule) => (
            <li key={schedule.name} data-testid="schedule" data-name={schedule.name}>
              <span className="schedule-text">
                <strong>{schedule.name}</strong> · {schedule.cron} · “{schedule.goal}” on {launchPhonesWords(schedule.phones)} · next {schedule.nextRunAt ? formatTime(schedule.nextRunAt) : 'not planned'}
                {schedule.lastRun?.problems.length ? <span className="launch-reason">Last run: {schedule.lastRun.problems.join('; ')}</span> : null}
              </span>
              <button type="button" className="button link danger" onClick={() => void remove(schedule.name)} aria-label={`Remove the schedule ${schedule.name}`}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
