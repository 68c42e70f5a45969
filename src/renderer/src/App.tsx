import { ConnectionBanner } from './components/ConnectionBanner';
import { ErrorBanner } from './components/ErrorBanner';
import { ErrorBoundary } from './components/ErrorBoundary';
import { DevicePanel } from './components/devices/DevicePanel';
import { Header } from './components/Header';
import { MainTabs } from './components/MainTabs';
import { SetupChecklist } from './components/SetupChecklist';
import { SettingsDrawer } from './components/settings/SettingsDrawer';
import { GoalBox } from './components/task/GoalBox';
import { useAppConnection } from './use-app-connection';

export function App() {
  useAppConnection();
  return (
    <div className="app">
      <Header />
      <ConnectionBanner />
      <ErrorBanner />
      <main className="layout">
        <ErrorBoundary area="the devices">
          <DevicePanel />
        </ErrorBoundary>
        <div className="work">
          <ErrorBoundary area="the setup checklist">
            <SetupChecklist />
          </ErrorBoundary>
          <ErrorBoundary area="the goal box">
            <GoalBox />
          </ErrorBoundary>
          <ErrorBoundary area="the timeline">
            <MainTabs />
          </ErrorBoundary>
        </div>
      </main>
      <ErrorBoundary area="the settings">
        <SettingsDrawer />
      </ErrorBoundary>
    </div>
  );
}
