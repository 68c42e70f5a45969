import { useBridge } from '../bridge-context';
import { useWords } from '../i18n/use-words';
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
  const words = useWords();
  const { t } = words;
  if (missed.length === 0) return null;
  const dismiss = () => bridge.call('schedules.dismissMissed', {}).then(setOverview, reportError);
  return (
    <div className="banner warning" role="status" data-testid="missed-runs">
      <span>
        {t('app:schedules.missed', {
          runs: missed
            .map((run) =>
              t('app:schedules.missedRun', {
                name: run.name,
                goal: run.goal,
                when: t('app:schedules.missedWhen', { count: run.count, first: formatTime(run.first, words), last: formatTime(run.last, words) }),
              }),
            )
            .join(t('app:schedules.listSeparator')),
        })}
      </span>{' '}
      <button type="button" className="button link" onClick={() => void dismiss()}>
        {t('app:schedules.dismiss')}
      </button>
    </div>
  );
}
