import { useAppStore } from '../store/app-store';
import { Diagnostics } from './Diagnostics';
import { formatDuration } from '../../../shared/task-words';
import { useWords } from '../i18n/use-words';

export function Header() {
  const info = useAppStore((s) => s.info);
  const connected = useAppStore((s) => s.connected);
  const heartbeat = useAppStore((s) => s.lastHeartbeat);
  const pingMs = useAppStore((s) => s.pingMs);
  const toggleSettings = useAppStore((s) => s.toggleSettings);
  const words = useWords();
  const { t } = words;
  return (
    <header className="app-header">
      <div className="brand">
        <span className="brand-mark" aria-hidden="true">◎</span>
        <h1>{t('app:header.title')}</h1>
        {info && <span className="version" data-testid="app-version">v{info.version}</span>}
      </div>
      <div className="header-status">
        <span
          className={`connection ${connected ? 'is-connected' : 'is-disconnected'}`}
          data-testid="connection-status"
          role="status"
          title={heartbeat ? t('app:header.heartbeatTitle', { seq: heartbeat.seq }) : undefined}
        >
          {connected ? t('app:header.connectedVia', { transport: info?.transport ?? '…' }) : info ? t('app:header.reconnecting') : t('app:header.connecting')}
        </span>
        {(heartbeat || pingMs !== null) && (
          <Diagnostics>
            {pingMs !== null && connected && <span className="ping">{t('app:header.roundTrip', { duration: formatDuration(pingMs, undefined, words) })}</span>}
            {heartbeat && (
              <span className="heartbeat" data-testid="heartbeat">
                {t('app:header.heartbeat', { seq: heartbeat.seq })}
              </span>
            )}
          </Diagnostics>
        )}
        <button type="button" className="button secondary" onClick={() => toggleSettings()} aria-label={t('app:header.openSettings')}>
          {t('app:header.settings')}
        </button>
      </div>
    </header>
  );
}
