import { ToolCallUnavailable, type ToolCallFailureKind } from '@amc/provider-clients';
import { plainWords } from '../../shared/plain-words';
import type { Said, SaidCode } from '../../shared/said';

/**
 * The message code of each way a model call fails, for a task that ends on it: the window words the lead in its own
 * language, and the provider's own words (English, as the provider gave them) follow as `said`. A cancelled call
 * never ends a task as failed (Stop ends it as cancelled).
 */
const CODE_OF_KIND: Record<ToolCallFailureKind, SaidCode | null> = {
  auth: 'provider.auth',
  'rate-limited': 'provider.rateLimited',
  timeout: 'provider.timeout',
  cancelled: null,
  unreachable: 'provider.unreachable',
  'server-error': 'provider.serverError',
  rejected: 'provider.rejected',
  'malformed-reply': 'provider.unusableReply',
  'unknown-tool': 'provider.unusableReply',
  'no-tool-call': 'provider.unusableReply',
  'several-tool-calls': 'provider.unusableReply',
};

/** The code for a failed model call, or undefined for any other error. */
export function providerFailureSaid(error: unknown): Said | undefined {
  if (!(error instanceof ToolCallUnavailable) || !error.kind) return undefined;
  const code = CODE_OF_KIND[error.kind];
  return code ? { code, values: { said: plainWords(error.message) } } : undefined;
}
