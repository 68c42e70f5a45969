import { useAppStore } from '../store/app-store';

/** Says in plain words why nothing updates while the page cannot reach the app, and what to do about it. */
export function ConnectionBanner() {
  const lost = useAppStore((s) => s.connectionLost && !s.connected);
  if (!lost) return null;
  return (
    <div className="banner error" role="alert" data-testid="connection-lost">
      <span>
        Not connected to the app, so nothing here is up to date. Retrying every second… If the app was restarted, open
        the address it printed when it started: every launch has a new access token.
      </span>
    </div>
  );
}
