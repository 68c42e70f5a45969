import { DevicePanel } from './components/DevicePanel';
import { GoalBox } from './components/GoalBox';
import { Header } from './components/Header';
import { SettingsDrawer } from './components/SettingsDrawer';
import { Timeline } from './components/Timeline';
import { useAppStore } from './store/app-store';
import { useAppConnection } from './use-app-connection';

export function App() {
  useAppConnection();
  const error = useAppStore((s) => s.error);
  return (
    <div className="app">
      <Header />
      {error && (
        <div className="banner error" role="alert">
          {error}
        </div>
      )}
      <main className="layout">
        <DevicePanel />
        <div className="work">
          <GoalBox />
          <Timeline />
        </div>
      </main>
      <SettingsDrawer />
    </div>
  );
}
