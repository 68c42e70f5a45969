import { useAppStore } from '../store/app-store';

export function ErrorBanner() {
  const error = useAppStore((s) => s.error);
  const setError = useAppStore((s) => s.setError);
  if (!error) return null;
  return (
    <div className="banner error" role="alert" data-testid="error-banner">
      <span>{error}</span>
      <button type="button" className="button link" onClick={() => setError(null)} aria-label="Dismiss the message">
        Dismiss
      </button>
    </div>
  );
}
