import { RecordingPanel } from './recording/RecordingPanel';
import { useWords } from '../i18n/use-words';
import { useAppStore, type MainView } from '../store/app-store';
import { HistoryPanel } from './history/HistoryPanel';
import { CurrentTask } from './task/CurrentTask';
import { LaunchPanel } from './launch/LaunchPanel';
import { FleetPanel } from './fleet/FleetPanel';

/** Each tab's label and its panel's heading (message keys). */
const TABS: Array<{ view: MainView; label: string; heading: string }> = [
  { view: 'task', label: 'app:tabs.task', heading: 'app:tabs.timeline' },
  { view: 'launch', label: 'app:tabs.launch', heading: 'app:tabs.launchHeading' },
  { view: 'history', label: 'app:tabs.history', heading: 'app:tabs.history' },
  { view: 'fleet', label: 'app:tabs.fleet', heading: 'app:tabs.fleet' },
];

/** The current task's timeline, a goal on several phones, and the history of past tasks, one at a time (arrow keys move between tabs). */
export function MainTabs() {
  const view = useAppStore((s) => s.view);
  const setView = useAppStore((s) => s.setView);
  const { t } = useWords();
  return (
    <section className="panel main-tabs">
      <div role="tablist" aria-label={t('app:tabs.label')} className="tabs">
        {TABS.map((tab, index) => (
          <button
            key={tab.view}
            id={`tab-${tab.view}`}
            role="tab"
            type="button"
            aria-selected={view === tab.view}
            aria-controls={`panel-${tab.view}`}
            tabIndex={view === tab.view ? 0 : -1}
            className="tab"
            onClick={() => setView(tab.view)}
            onKeyDown={(event) => {
              if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
              const next = TABS[(index + (event.key === 'ArrowRight' ? 1 : TABS.length - 1)) % TABS.length]!;
              setView(next.view);
              document.getElementById(`tab-${next.view}`)?.focus();
            }}
          >
            {t(tab.label)}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`panel-${view}`} aria-labelledby={`tab-${view}`} className="tab-panel">
        <h2 className="panel-title">{t(TABS.find((tab) => tab.view === view)!.heading)}</h2>
        {view === 'task' ? (
          <>
            <RecordingPanel />
            <CurrentTask />
          </>
        ) : view === 'launch' ? <LaunchPanel /> : view === 'fleet' ? <FleetPanel /> : <HistoryPanel />}
      </div>
    </section>
  );
}
