import { BridgeError } from '../bridge';

/** Turns anything a bridge call can throw into one sentence a person can act on. */
export function plainError(error: unknown): string {
  if (error instanceof BridgeError) {
    const { code, message, issues } = error.rpcError;
    if (code === 'invalid_input' && issues?.length) return `That input was not accepted: ${issues.join('; ')}.`;
    if (code === 'unavailable') return message;
    return withoutErrorName(message);
  }
  if (error instanceof Error) return error.message;
  return String(error);
}

/** Main reports failures as `<ErrorName>: <message>`; the name means nothing to a person. */
export function withoutErrorName(message: string): string {
  return message.replace(/^[A-Z][A-Za-z]*Error: /, '');
}
