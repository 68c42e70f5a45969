import type { ReactNode } from 'react';

/** Numbers for whoever is looking into a problem (round trips, heartbeats, frame rates): folded away by default. */
export function Diagnostics({ children, label = 'Diagnostics' }: { children: ReactNode; label?: string }) {
  return (
    <details className="diagnostics" data-testid="diagnostics">
      <summary>{label}</summary>
      <div className="diagnostics-body">{children}</div>
    </details>
  );
}
