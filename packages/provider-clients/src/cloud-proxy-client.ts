import {
  ProxyDecisionResponseSchema,
  ToolCallUnavailable,
  type ToolCallDecision,
  type ToolCallFailureKind,
  type ToolCallingClient,
} from './decision';
import { summariseBody } from './reply-words';
import { startCallDeadline, type CallDeadline } from './call-deadline';
import { singleOfferedCall } from './tool-call-checks';

export const CONTROL_PLANE_DECISION_PATH = '/v1/planner/decision';

export interface CloudProxyClientOptions {
  /** The control plane's base URL (e.g. https://cp.example.com); a URL already ending in the decision path is used as is. */
  url: string;
  /** The host agent's bearer token (`amc_<id>_<secret>`). Never logged, never put in an error message. */
  token: string;
  timeoutMs: number;
  /** For tests and custom agents; defaults to the global fetch. */
  fetch?: typeof fetch;
}

const MAX_REASON = 300;
/** A replica that is shutting down answers 503 or drops the connection; another replica can take the retry. */
const RETRY_DELAY_MS = 200;
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

type Attempt = { status: number; headers: Headers; bodyText: string } | { error: unknown };

/** Worth one more try: a 503, or a connection cut before the answer (never a 4xx, a timeout or a cancellation). */
function isRetryable(attempt: Attempt, deadline: CallDeadline): boolean {
  if (deadline.signal.aborted) return false;
  if ('status' in attempt) return attempt.status === 503;
  const error = attempt.error;
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return RESET_CODES.has((cause as NodeJS.ErrnoException | undefined)?.code ?? '');
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

function decisionUrl(base: string): string {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new ToolCallUnavailable(`CONTROL_PLANE_URL is not a valid URL: ${JSON.stringify(base.slice(0, 200))}`, { kind: 'rejected' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ToolCallUnavailable(`CONTROL_PLANE_URL must be http(s), got ${url.protocol}`, { kind: 'rejected' });
  }
  if (url.pathname.endsWith(CONTROL_PLANE_DECISION_PATH)) return url.href;
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${CONTROL_PLANE_DECISION_PATH}`;
  return url.href;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_REASON ? `${flat.slice(0, MAX_REASON)}…` : flat;
}

/** The service's `{ error: { message } }`, or the start of whatever a proxy in between sent instead. */
function reasonOf(bodyText: string): string {
  try {
    const body = JSON.parse(bodyText) as { error?: { message?: unknown } };
    if (typeof body?.error?.message === 'string') return oneLine(body.error.message);
  } catch {
    // not JSON: fall through to the raw text
  }
  return bodyText.trim() ? summariseBody(bodyText, MAX_REASON) : 'no reason given';
}

function retryAfterSeconds(headers: Headers): number | undefined {
  const seconds = Number(headers.get('retry-after'));
  return headers.has('retry-after') && Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds) : undefined;
}

function statusFailure(status: number, headers: Headers, bodyText: string): ToolCallUnavailable {
  const reason = reasonOf(bodyText);
  const fail = (kind: ToolCallFailureKind, what: string, extra: { retryAfterSeconds?: number } = {}) =>
    new ToolCallUnavailable(`${what} (${status}): ${reason}`, { kind, ...extra });
  switch (status) {
    case 401:
      return fail('auth', 'control plane rejected the token; check the Control-plane token in Settings (or CONTROL_PLANE_TOKEN where that is set)');
    case 403:
      return fail('auth', 'control plane refused the token (disabled); ask for a new Control-plane token');
    case 413:
      return fail('rejected', 'control plane refused the request as too large');
    case 429: {
      const after = retryAfterSeconds(headers);
      const what = `control plane rate limit reached${after === undefined ? '' : `, retry after ${after} s`}`;
      return fail('rate-limited', what, after === undefined ? {} : { retryAfterSeconds: after });
    }
    case 502:
      return fail('server-error', 'the provider behind the control plane failed');
    case 503:
      return fail('server-error', 'control plane unavailable');
    case 504:
      return fail('timeout', 'the provider behind the control plane timed out');
    default:
      return status >= 500 ? fail('server-error', 'control plane failed') : fail('rejected', 'control plane refused the request');
  }
}

function transportFailure(error: unknown, deadline: CallDeadline, origin: string): ToolCallUnavailable {
  if (deadline.cancelled()) {
    return new ToolCallUnavailable('control plane call cancelled before it answered', { kind: 'cancelled', cause: error });
  }
  if (deadline.timedOut()) {
    const seconds = Math.round(deadline.timeoutMs / 100) / 10;
    return new ToolCallUnavailable(
      `control plane did not answer within ${seconds} s (timeout); try again or raise AI_PLANNER_TIMEOUT_SECONDS`,
      { kind: 'timeout', cause: error },
    );
  }
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const detail = cause instanceof Error ? `${(cause as NodeJS.ErrnoException).code ?? cause.name}: ${oneLine(cause.message)}` : String(cause);
  return new ToolCallUnavailable(`cannot reach the control plane at ${origin} (${detail}); check the Control-plane URL in Settings`, {
    kind: 'unreachable',
    cause: error,
  });
}

/**
 * The cloud-proxy transport: sends the decision inputs to the Cloud Control Plane, which holds the provider
 * keys. No provider SDK is built here; the proxy exposes no text and no thinking, so both are null. A 503 or a
 * reset connection is retried once (a rolling restart of the control plane costs no task); nothing else is.
 */
export function createCloudProxyClient(options: CloudProxyClientOptions): ToolCallingClient {
  const doFetch = options.fetch ?? fetch;
  return {
    provider: 'cloud-proxy',
    async decide(request, { signal }): Promise<ToolCallDecision> {
      const url = decisionUrl(options.url);
      const origin = new URL(url).origin;
      const deadline = startCallDeadline(options.timeoutMs, signal);
      const attempt = async (): Promise<Attempt> => {
        try {
          const response = await doFetch(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${options.token}` },
            body: JSON.stringify(request),
            signal: deadline.signal,
          });
          return { status: response.status, headers: response.headers, bodyText: await response.text() };
        } catch (error) {
          return { error };
        }
      };
      try {
        let answer = await attempt();
        if (isRetryable(answer, deadline)) {
          await pause(RETRY_DELAY_MS, deadline.signal);
          if (!deadline.signal.aborted) answer = await attempt();
        }
        if ('error' in answer) throw transportFailure(answer.error, deadline, origin);
        const { status, headers, bodyText } = answer;
        if (status !== 200) throw statusFailure(status, headers, bodyText);
        let json: unknown;
        try {
          json = JSON.parse(bodyText);
        } catch {
          throw new ToolCallUnavailable(`control plane sent a malformed reply (not JSON): ${summariseBody(bodyText, 120)}`, {
            kind: 'malformed-reply',
          });
        }
        const parsed = ProxyDecisionResponseSchema.safeParse(json);
        if (!parsed.success) {
          const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`).join('; ');
          throw new ToolCallUnavailable(`control plane sent a malformed reply (${oneLine(issues)})`, { kind: 'malformed-reply' });
        }
        // The same checks as the direct clients: the call must be to a tool this request offered.
        const call = singleOfferedCall('control plane', request, [{ name: parsed.data.tool_name, input: parsed.data.arguments }], null);
        return {
          ...call,
          rationale: null,
          thinking: null,
          usage: parsed.data.usage,
        };
      } finally {
        deadline.dispose();
      }
    },
  };
}
