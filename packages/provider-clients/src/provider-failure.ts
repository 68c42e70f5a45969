import { ToolCallUnavailable } from './decision';
import type { CallDeadline } from './call-deadline';
import { summariseBody } from './reply-words';
import { redactSecrets } from './redact';

/** What the two SDKs' errors have in common, read without depending on either SDK's classes here. */
export interface SdkFailure {
  /** HTTP status when the provider answered with an error status. */
  status?: number | undefined;
  headers?: Headers | undefined;
  /** The provider's own explanation (error.message of the response body), if any. */
  apiMessage?: string | null | undefined;
  /** The SDK gave up connecting or reading (not an HTTP status). */
  connectionFailed?: boolean;
  /** The SDK's own timeout fired. */
  sdkTimedOut?: boolean;
}

export interface ProviderLabel {
  /** Human name, e.g. "Anthropic" or "OpenAI-compatible server". */
  name: string;
  baseURL: string;
  /** The key this client sends: hidden wherever a provider repeats it. */
  apiKey: string;
  /** Where the user fixes a bad key, e.g. "ANTHROPIC_API_KEY (or the key in Settings)". */
  keyHint: string;
}

const MAX_PROVIDER_MESSAGE = 300;

/** A provider's words in one short line: a proxy's HTML page or a stack trace in the body is summarised, not quoted. */
const shorten = (text: string): string => summariseBody(text, MAX_PROVIDER_MESSAGE);

function retryAfterSeconds(headers: Headers | undefined): number | undefined {
  const ms = Number(headers?.get('retry-after-ms'));
  if (Number.isFinite(ms) && ms > 0) return Math.ceil(ms / 1000);
  const raw = headers?.get('retry-after');
  if (!raw) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/**
 * Turns any failure of one decision call into a ToolCallUnavailable whose message says what happened and
 * what to do. Provider messages are quoted for 4xx/5xx except on 401/403, whose bodies may echo part of
 * the key; every message passes the redaction step (a server may repeat the key, or the base URL carry a
 * password).
 */
export function describeFailure(
  provider: ProviderLabel,
  error: unknown,
  failure: SdkFailure | undefined,
  deadline: CallDeadline,
): ToolCallUnavailable {
  if (error instanceof ToolCallUnavailable) return error;
  const described = describe(provider, error, failure, deadline);
  const message = redactSecrets(described.message, [provider.apiKey]);
  if (message === described.message) return described;
  return new ToolCallUnavailable(message, {
    kind: described.kind,
    ...(described.retryAfterSeconds !== undefined && { retryAfterSeconds: described.retryAfterSeconds }),
    cause: error,
  });
}

function describe(provider: ProviderLabel, error: unknown, failure: SdkFailure | undefined, deadline: CallDeadline): ToolCallUnavailable {
  const seconds = Math.round(deadline.timeoutMs / 100) / 10;
  if (deadline.cancelled()) {
    return new ToolCallUnavailable(`${provider.name} call cancelled before the model answered`, { kind: 'cancelled', cause: error });
  }
  if (deadline.timedOut() || failure?.sdkTimedOut) {
    return new ToolCallUnavailable(
      `${provider.name} did not answer within ${seconds} s (timeout); try again or raise AI_PLANNER_TIMEOUT_SECONDS`,
      { kind: 'timeout', cause: error },
    );
  }
  const status = failure?.status;
  const said = failure?.apiMessage ? `: ${shorten(failure.apiMessage)}` : '';
  if (status === 401 || status === 403) {
    return new ToolCallUnavailable(
      `${provider.name} rejected the API key (HTTP ${status}); check ${provider.keyHint}`,
      { kind: 'auth', cause: error },
    );
  }
  if (status === 429) {
    const after = retryAfterSeconds(failure?.headers);
    const wait = after === undefined ? 'wait a moment' : `retry after ${after} s`;
    return new ToolCallUnavailable(`${provider.name} rate limited the request (HTTP 429)${said}; ${wait}`, {
      kind: 'rate-limited',
      retryAfterSeconds: after,
      cause: error,
    });
  }
  if (status === 404) {
    return new ToolCallUnavailable(
      `${provider.name} answered HTTP 404${said}; check the model name and the base URL (${provider.baseURL})`,
      { kind: 'rejected', cause: error },
    );
  }
  if (status !== undefined && status >= 500) {
    return new ToolCallUnavailable(`${provider.name} answered with a server error (HTTP ${status})${said}; try again later`, {
      kind: 'server-error',
      cause: error,
    });
  }
  if (status !== undefined) {
    return new ToolCallUnavailable(`${provider.name} refused the request (HTTP ${status})${said}`, {
      kind: 'rejected',
      cause: error,
    });
  }
  if (failure?.connectionFailed) {
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${shorten(error.cause.message)}` : '';
    return new ToolCallUnavailable(`could not reach ${provider.name} at ${provider.baseURL}${cause}`, {
      kind: 'unreachable',
      cause: error,
    });
  }
  if (isCutOffBody(error)) {
    return new ToolCallUnavailable(
      `${provider.name} closed the connection before its reply was complete; try again (if it keeps happening, ` +
        `check any proxy between this computer and ${provider.baseURL})`,
      { kind: 'unreachable', cause: error },
    );
  }
  const text = error instanceof Error ? `${error.name}: ${shorten(error.message)}` : shorten(String(error));
  return new ToolCallUnavailable(`${provider.name} reply could not be used (${text})`, {
    kind: 'malformed-reply',
    cause: error,
  });
}

/** Node's fetch (undici) reports a body cut off by the other side as `TypeError: terminated`. */
function isCutOffBody(error: unknown): boolean {
  return error instanceof TypeError && error.message === 'terminated';
}
