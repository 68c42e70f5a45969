import { useState } from 'react';
import type { LaunchPhones } from '../../../../shared/launch';
import type { SchedulesOverview } from '../../../../shared/schedule';
import { launchPhonesWords } from '../../../../shared/launch';
import { useBridge } from '../../bridge-context';
import { useWords } from '../../i18n/use-words';
import { formatTime } from '../../lib/format';
import { reportError } from '../../store/app-store';
import { useSchedulesStore } from '../../store/schedules-store';
import { useDevicesStore } from '../../store/devices-store';
import type { DeviceSummary } from '../../../../shared/device';
import { NAME_MAX_LENGTH, NAME_PROBLEM_CODES, nameProblem } from '../../../../shared/names';
import { wordSaid } from '../../../../shared/said';
import { BridgeError } from '../../bridge/bridge';
import { plainError } from '../../lib/errors';

type ListedSchedule = SchedulesOverview['schedules'][number];

/**
 * What a schedule keeps of the phones picked: a demo phone by its number (its serial changes at every start), any
 * other pick as it is.
 */
function lastingPhones(phones: LaunchPhones, devices: readonly DeviceSummary[]): LaunchPhones {
  if (phones.kind !== 'serials' || phones.serials.length !== 1) return phones;
  const said = devices.find((device) => device.serial === phones.serials[0])?.nameSaid;
  if (said?.code === 'phoneName.demo') return { kind: 'demo', number: 1 };
  if (said?.code === 'phoneName.demoNumbered' && typeof said.values.number === 'number') return { kind: 'demo', number: said.values.number };
  return phones;
}

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
  const words = useWords();
  const { t } = words;
  // The name is checked as it is typed, in the window's words; an empty one only says what is still missing.
  const nameIssue = name.trim() ? nameProblem(name) : null;
  const cronIssue = cron.trim().split(/\s+/).length === 5 ? null : t('said:schedule.cronFields', { pattern: cron.trim() });
  const missing = !goal ? t('app:schedules.needGoal') : !phones ? t('app:schedules.needPhones') : !name.trim() ? t('app:schedules.needName') : null;

  const add = async () => {
    if (!phones) return;
    try {
      const devices = useDevicesStore.getState().list?.devices ?? [];
      setOverview(await bridge.call('schedules.add', { name: name.trim(), cron: cron.trim(), goal, phones: lastingPhones(phones, devices) }));
      setProblem(null);
      setName('');
    } catch (error) {
      // Main's refusal in the window's words when it carries a code (a cron pattern croner refuses, a refused input).
      setProblem(error instanceof BridgeError ? wordSaid(plainError(error), error.rpcError.said, words) : plainError(error));
    }
  };
  /** When it runs, what (a goal, or a flow by its name as the CLI says it) and on which phones. */
  const scheduleLine = (schedule: ListedSchedule) => {
    const values = {
      cron: schedule.cron,
      phones: launchPhonesWords(schedule.phones, words),
      next: schedule.nextRunAt ? formatTime(schedule.nextRunAt, words) : t('app:schedules.notPlanned'),
    };
    return schedule.flow ? t('app:schedules.flowLine', { ...values, flow: schedule.flow.name }) : t('app:schedules.line', { ...values, goal: schedule.goal });
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
        {t('app:schedules.title')}
      </h3>
      <div className="schedule-form">
        <label>
          {t('app:schedules.name')}{' '}
          <input
            value={name}
            maxLength={NAME_MAX_LENGTH}
            placeholder={t('app:schedules.namePlaceholder')}
            aria-invalid={nameIssue !== null}
            aria-describedby={nameIssue ? 'schedule-name-problem' : undefined}
            onChange={(event) => setName(event.target.value)}
          />
        </label>
        <label>
          {t('app:schedules.when')} <input value={cron} maxLength={100} onChange={(event) => setCron(event.target.value)} />
        </label>
        <button type="button" className="button secondary" disabled={missing !== null || nameIssue !== null || cronIssue !== null} onClick={() => void add()}>
          {t('app:schedules.add')}
        </button>
        {nameIssue ? (
          <span className="field-problem small" id="schedule-name-problem" role="alert" data-testid="schedule-name-problem">
            {t(`said:${NAME_PROBLEM_CODES[nameIssue]}`)}
          </span>
        ) : cronIssue ? (
          <span className="field-problem small" role="alert" data-testid="schedule-cron-problem">
            {cronIssue}
          </span>
        ) : (
          missing && <span className="muted small">{missing}</span>
        )}
      </div>
      {problem && (
        <p className="field-problem" role="alert" data-testid="schedule-problem">
          {problem}
        </p>
      )}
      <p className="muted small">{t('app:schedules.hint')}</p>
      {overview && overview.schedules.length > 0 && (
        <ul className="schedule-list" data-testid="schedule-list">
          {overview.schedules.map((schedule) => (
            <li key={schedule.name} data-testid="schedule" data-name={schedule.name}>
              <span className="schedule-text">
                <strong>{schedule.name}</strong> ·{' '}
                {scheduleLine(schedule)}
                {schedule.lastRun?.problems.length ? <span className="launch-reason">{t('app:schedules.lastRun', { problems: schedule.lastRun.problems.join('; ') })}</span> : null}
              </span>
              <button type="button" className="button link danger" onClick={() => void remove(schedule.name)} aria-label={t('app:schedules.removeLabel', { name: schedule.name })}>
                {t('app:schedules.remove')}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
