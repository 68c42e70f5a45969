import type { ReactNode } from 'react';
import { useWords } from '../i18n/use-words';

/** Numbers for whoever is looking into a problem (round trips, heartbeats, frame rates): folded away by default. */
export function Diagnostics({ children, label }: { children: ReactNode; label?: string }) {
  const { t } = useWords();
  return (
    <details className="diagnostics" data-testid="diagnostics">
      <summary>{label ?? t('app:common.diagnostics')}</summary>
      <div className="diagnostics-body">{children}</div>
    </details>
  );
}
