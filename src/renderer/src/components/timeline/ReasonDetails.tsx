import { plainReason } from '../../../../shared/plain-words';

/** The reason exactly as recorded (error class, provider wording), for a bug report; only when it says more than the plain words. */
export function ReasonDetails({ reason }: { reason: string }) {
  if (plainReason(reason) === reason.trim()) return null;
  return (
    <details className="reason-details" data-testid="reason-details">
      <summary>Details</summary>
      <pre>{reason}</pre>
    </details>
  );
}
