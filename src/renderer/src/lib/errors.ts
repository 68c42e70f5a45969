import { plainReason } from '../../../shared/plain-words';
import { textForReader, wordSaid } from '../../../shared/said';
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
    // A refusal main worded by its code (a phone that left, a busy phone, a task that cannot be shown) reads in the
    // window's language; an English window reads the English main wrote.
    if (error.rpcError.said) return textForReader(plainReason(message), error.rpcError.said, currentWords());
    if (code === 'unavailable') return message;
    return plainReason(message);
  }
  if (error instanceof Error) return plainReason(error.message);
  return plainReason(String(error));
}
