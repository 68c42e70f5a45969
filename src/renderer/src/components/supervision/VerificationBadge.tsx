import type { Verification } from '../../../../shared/action';

/** What the runtime checked about an action (or a success claim), from the screen after it: "verified" or "not verified: why". */
export function VerificationBadge({ verification }: { verification: Verification | null | undefined }) {
  if (!verification) return null;
  const verified = verification.status === 'verified';
  return (
    <p className={`verification ${verified ? 'ok' : 'warn'}`} data-testid="verification" data-status={verification.status}>
      {verified ? `Verified: ${verification.fact}` : `Not verified: ${verification.fact}`}
    </p>
  );
}
