import { useBridge } from '../bridge-context';
import { formatTime } from '../lib/format';
import { reportError } from '../store/app-store';
import { useSchedulesStore } from '../store/schedules-store';
import type { MissedRuns } from '../../../shared/schedule';

const NONE: MissedRuns[] = [];

/** Scheduled runs that fell while the app was closed: said once the app starts, until the person dismisses them. */
export function MissedRunsBanner() {
  const bridge = useBridge();
  const missed = useSchedulesStore((s) => s.overview?.missed ?? NONE);
  const setOverview = useSchedulesStore((s) => s.setOverview);
  if (missed.length === 0) return null;
  const dismiss = () => bridge.call('schedules.dismissMissed', {}).then(setOverview, reportError);
  return (
    <div className="banner warning" role="status" data-testid="missed-runs">
      <span>
        Missed while the app was closed:{' '}
        {missed
          .map((run) => `${run.name} (“${run.goal}”) — ${run.count === 1 ? `at ${formatTime(run.first)}` : `${run.count} runs, ${formatTime(run.first)} to ${formatTime(run.last)}`}`)
          .join('; ')}
        .
      </span>{' '}
      <button type="button" className="button link" onClick={() => void dismiss()}>
        Dismiss
      </button>
    </div>
  );
}
