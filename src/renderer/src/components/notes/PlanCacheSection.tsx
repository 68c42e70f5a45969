import { useCallback, useEffect, useState } from 'react';
import type { PlanCacheEntry, PlanCacheListing } from '../../../../shared/plan-cache';
import { textForReader } from '../../../../shared/said';
import { useBridge } from '../../bridge-context';
import { reportError } from '../../store/app-store';
import { useWords } from '../../i18n/use-words';
import { formatTime } from '../../lib/format';
import { askConfirm } from '../../store/confirm-store';

/** The runs "Reuse successful runs" follows, one per goal, for the person to read and forget. Read afresh when shown. */
export function PlanCacheSection() {
  const bridge = useBridge();
  const words = useWords();
  const { t } = words;
  const [listing, setListing] = useState<PlanCacheListing | null>(null);
  const load = useCallback(() => bridge.call('planCache.list', {}).then(setListing, reportError), [bridge]);
  useEffect(() => void load(), [load]);

  const forget = async (entry: PlanCacheEntry) => {
    if (!(await askConfirm(t('app:planCache.confirmForget', { goal: entry.goal }), t('app:planCache.forget')))) return;
    await bridge.call('planCache.forget', { which: entry.taskId }).catch(reportError);
    await load();
  };

  return (
    <section className="app-notes" aria-labelledby="plan-cache-title" data-testid="plan-cache">
      <h3 id="plan-cache-title">{t('app:planCache.title')}</h3>
      <p className="muted">{t('app:planCache.intro')}</p>
      {listing?.problem && (
        <p className="banner warning" role="alert">
          {textForReader(listing.problem, listing.problemSaid, words)}
        </p>
      )}
      {listing && !listing.problem && listing.entries.length === 0 && <p className="empty">{t('app:planCache.empty')}</p>}
      {listing && listing.entries.length > 0 && (
        <ul>
          {listing.entries.map((entry) => (
            <li key={entry.taskId} className="app-note" data-testid="plan-cache-entry">
              <span className="app-note-line">{entry.goal}</span>
              <span className="muted app-note-meta">
                {entry.app ?? t('app:planCache.noApp')} · {t('app:planCache.learned', { time: formatTime(entry.learnedAt, words) })}
              </span>
              <span className="row-actions">
                <button type="button" className="button link danger" onClick={() => void forget(entry)} aria-label={t('app:planCache.forgetLabel', { goal: entry.goal })}>
                  {t('app:planCache.forget')}
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
