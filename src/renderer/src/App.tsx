import { ErrorBanner } from './components/ErrorBanner';
import { DevicePanel } from './components/devices/DevicePanel';
import { Header } from './components/Header';
import { MainTabs } from './components/MainTabs';
import { SettingsDrawer } from './components/settings/SettingsDrawer';
import { GoalBox } from './components/task/GoalBox';
import { useAppConnection } from './use-app-connection';

export function App() {
  useAppConnection();
  return (
    <div className="app">
      <Header />
      <ErrorBanner />
      <main className="layout">
        <DevicePanel />
        <div className="work">
          <GoalBox />
          <MainTabs />
        </div>
      </main>
      <SettingsDrawer />
    </div>
  );
}
