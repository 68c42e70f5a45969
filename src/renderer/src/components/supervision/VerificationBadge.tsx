import type { Verification } from '../../../../shared/action';
import { wordSaid } from '../../../../shared/said';
import { useWords } from '../../i18n/use-words';

/** What the runtime checked about an action (or a success claim), from the screen after it: "verified" or "not verified: why". */
export function VerificationBadge({ verification }: { verification: Verification | null | undefined }) {
  const words = useWords();
  if (!verification) return null;
  const verified = verification.status === 'verified';
  return (
    <p className={`verification ${verified ? 'ok' : 'warn'}`} data-testid="verification" data-status={verification.status}>
      {words.t(verified ? 'app:supervision.verified' : 'app:supervision.notVerified', { fact: wordSaid(verification.fact, verification.said, words) })}
    </p>
  );
}
