import { plainReason } from '../../../shared/plain-words';
import { wordSaid } from '../../../shared/said';
import { BridgeError } from '../bridge';
import { currentWords } from '../i18n/language-store';

/** Turns anything a bridge call can throw into one sentence a person can act on. */
export function plainError(error: unknown): string {
  if (error instanceof BridgeError) {
    const { code, message, issues, issuesSaid } = error.rpcError;
    if (code === 'invalid_input' && issues?.length) {
      const words = currentWords();
      const worded = issues.map((issue, index) => wordSaid(issue, issuesSaid?.[index], words));
      return words.t('app:common.inputRefused', { issues: worded.join(words.t('app:common.issueSeparator')) });
    }
    // An error that carries its code (a task that cannot be shown, …) is worded in the window's language.
    if (error.rpcError.said) return wordSaid(plainReason(message), error.rpcError.said, currentWords());
    if (code === 'unavailable') return message;
    // A refusal main worded by its code (a phone that left, a busy phone) reads in the window's language.
    return wordSaid(plainReason(message), error.rpcError.said, currentWords());
  }
  if (error instanceof Error) return plainReason(error.message);
  return plainReason(String(error));
}
