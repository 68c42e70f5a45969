import { useWords } from '../i18n/use-words';
import { useAppStore } from '../store/app-store';

/** "configuration problems:\n  - a\n  - b" (main's ConfigError) as a heading and its items. */
function splitList(message: string): { lead: string; items: string[] } {
  const [lead = '', ...items] = message.split(/\n\s*- /);
  return { lead, items };
}

export function ErrorBanner() {
  const error = useAppStore((s) => s.error);
  const setError = useAppStore((s) => s.setError);
  const openSettings = useAppStore((s) => s.toggleSettings);
  const { t } = useWords();
  if (!error) return null;
  const { lead, items } = splitList(error);
  // A problem that names a Settings field comes with the way there.
  const aboutSettings = error.includes('Settings →');
  return (
    <div className="banner error" role="alert" data-testid="error-banner">
      <div>
        <span>{lead}</span>
        {items.length > 0 && (
          <ul className="banner-items">
            {items.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        )}
      </div>
      {aboutSettings && (
        <button type="button" className="button secondary" onClick={() => openSettings(true)}>
          {t('app:common.openSettings')}
        </button>
      )}
      <button type="button" className="button link" onClick={() => setError(null)} aria-label={t('app:common.dismissLabel')}>
        {t('app:common.dismiss')}
      </button>
    </div>
  );
}
