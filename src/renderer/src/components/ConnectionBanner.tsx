import { useWords } from '../i18n/use-words';
import { useAppStore } from '../store/app-store';

/** Says in plain words why nothing updates while the page cannot reach the app, and what to do about it. */
export function ConnectionBanner() {
  const lost = useAppStore((s) => s.connectionLost && !s.connected);
  const { t } = useWords();
  if (!lost) return null;
  return (
    <div className="banner error" role="alert" data-testid="connection-lost">
      <span>{t('app:connection.lost')}</span>
    </div>
  );
}
