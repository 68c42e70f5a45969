import { useAppStore } from '../store/app-store';
import { Diagnostics } from './Diagnostics';
import { formatDuration } from '../../../shared/task-words';

export function Header() {
  const info = useAppStore((s) => s.info);
  const connected = useAppStore((s) => s.connected);
  const heartbeat = useAppStore((s) => s.lastHeartbeat);
  const pingMs = useAppStore((s) => s.pingMs);
  const toggleSettings = useAppStore((s) => s.toggleSettings);
  return (
    <header className="app-header">
      <div className="brand">
        <span className="brand-mark" aria-hidden="true">◎</span>
        <h1>Agentic Mobile Control</h1>
        {info && <span className="version" data-testid="app-version">v{info.version}</span>}
      </div>
      <div className="header-status">
        <span
          className={`connection ${connected ? 'is-connected' : 'is-disconnected'}`}
          data-testid="connection-status"
          role="status"
          title={heartbeat ? `Heartbeat #${heartbeat.seq}` : undefined}
        >
          {connected ? `Connected via ${info?.transport ?? '…'}` : info ? 'Reconnecting…' : 'Connecting…'}
        </span>
        {(heartbeat || pingMs !== null) && (
          <Diagnostics>
            {pingMs !== null && connected && <span className="ping">round trip {formatDuration(pingMs)}</span>}
            {heartbeat && (
              <span className="heartbeat" data-testid="heartbeat">
                heartbeat #{heartbeat.seq}
              </span>
            )}
          </Diagnostics>
        )}
        <button type="button" className="button secondary" onClick={() => toggleSettings()} aria-label="Open settings">
          Settings
        </button>
      </div>
    </header>
  );
}
