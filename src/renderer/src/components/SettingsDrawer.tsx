import { useAppStore } from '../store/app-store';

export function SettingsDrawer() {
  const open = useAppStore((s) => s.settingsOpen);
  const toggleSettings = useAppStore((s) => s.toggleSettings);
  if (!open) return null;
  return (
    <aside className="settings-drawer" role="dialog" aria-modal="false" aria-labelledby="settings-title">
      <div className="drawer-header">
        <h2 id="settings-title">Settings</h2>
        <button type="button" className="button secondary" onClick={() => toggleSettings(false)}>
          Close
        </button>
      </div>
      <p className="empty">The AI planner is off; the built-in stub planner runs tasks.</p>
    </aside>
  );
}
