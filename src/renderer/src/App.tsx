import type { CSSProperties } from 'react';
import { ConnectionBanner } from './components/ConnectionBanner';
import { ErrorBanner } from './components/ErrorBanner';
import { ErrorBoundary } from './components/ErrorBoundary';
import { DevicePanel } from './components/devices/DevicePanel';
import { Header } from './components/Header';
import { Splitter } from './components/layout/Splitter';
import { usePanelWidth } from './components/layout/use-panel-width';
import { MainTabs } from './components/MainTabs';
import { MissedRunsBanner } from './components/MissedRunsBanner';
import { SetupChecklist } from './components/SetupChecklist';
import { SettingsDrawer } from './components/settings/SettingsDrawer';
import { GoalBox } from './components/task/GoalBox';
import { InspectPanel } from './components/inspect/InspectPanel';
import { useInspectStore } from './store/inspect-store';
import { ShortcutsHelp } from './components/task/ShortcutsHelp';
import { ConfirmDialog } from './components/ConfirmDialog';
import { useWords } from './i18n/use-words';
import { useAppConnection } from './use-app-connection';

export function App() {
  useAppConnection();
  const panel = usePanelWidth();
  const { t } = useWords();
  const inspecting = useInspectStore((s) => s.target !== null);
  return (
    <div className="app">
      <Header />
      <ConnectionBanner />
      <ErrorBanner />
      <MissedRunsBanner />
      {/* The window does not scroll: the phone and the timeline each scroll in their own area. */}
      <main className="layout" style={{ '--device-panel-width': `${panel.width}px` } as CSSProperties}>
        <ErrorBoundary area={t('app:area.devices')}>
          <DevicePanel />
        </ErrorBoundary>
        <Splitter width={panel.width} onResize={panel.resize} onReset={panel.reset} />
        <div className="work">
          <ErrorBoundary area={t('inspect:area')}>
            <InspectPanel />
          </ErrorBoundary>
          {/* Kept while inspecting (hidden), so the goal typed and the History opened are as they were after. */}
          <div className="work-main" hidden={inspecting}>
          <ErrorBoundary area={t('app:area.setup')}>
            <SetupChecklist />
          </ErrorBoundary>
          <ErrorBoundary area={t('app:area.goal')}>
            <GoalBox />
          </ErrorBoundary>
          <ErrorBoundary area={t('app:area.timeline')}>
            <MainTabs />
          </ErrorBoundary>
          </div>
        </div>
      </main>
      <ErrorBoundary area={t('app:area.settings')}>
        <SettingsDrawer />
      </ErrorBoundary>
      <ShortcutsHelp />
      <ConfirmDialog />
    </div>
  );
}
