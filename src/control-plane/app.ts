import { randomUUID } from 'node:crypto';
import type { HttpBindings } from '@hono/node-server';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode, UnofficialStatusCode } from 'hono/utils/http-status';
import { bodyLimit } from 'hono/body-limit';
import { DecisionRequestSchema, type ProxyDecisionResponse } from '@amc/provider-clients';
import { addressKey, tokenIdKey, type AuthFailureGuard } from './auth-failures';
import { ApiError, errorBody } from './errors';
import type { InFlightDecisions } from './in-flight';
import type { LimitPolicy, LimitsStore } from './limits';
import type { Logger } from './logger';
import { mayReadMetrics, type ControlPlaneMetrics } from './metrics';
import { costMicroUsd, type Pricing } from './pricing';
import type { BearerVerifier, TokenCheck, TokenRecord } from './token-store';
import type { Upstream, UpstreamRoute } from './upstream';

export interface ControlPlaneAppDeps {
  tokens: BearerVerifier;
  upstream: Upstream;
  limits: LimitsStore;
  /** The token's rate and quotas: the service's defaults with the token's overrides. */
  policyFor(record: TokenRecord): LimitPolicy;
  pricing: Pricing;
  inFlight: InFlightDecisions;
  logger: Logger;
  bodyLimitBytes: number;
  metrics: ControlPlaneMetrics;
  /** The Prometheus text of this process, or of all workers when clustered. */
  metricsText(): Promise<string>;
  metricsToken: string | null;
  authFailures: AuthFailureGuard;
  /** Take the client address from the last X-Forwarded-For entry. */
  trustProxy: boolean;
  /** Why the shared store cannot serve (Redis down), or null. */
  storeNotReadyReason(): string | null;
}

type AppEnv = {
  Bindings: Partial<HttpBindings>;
  Variables: {
    requestId: string;
    tokenId: string;
    route: UpstreamRoute;
    upstreamLatencyMs: number;
    errorCode: string;
    /** Set for sampled-out auth failures: no request log line. */
    quiet: boolean;
  };
};

export const DECISION_PATH = '/v1/planner/decision';
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;
const MAX_LISTED_ISSUES = 5;

function authFailure(check: Exclude<TokenCheck, { ok: true }>): ApiError {
  switch (check.reason) {
    case 'unavailable':
      return new ApiError(503, 'store_unavailable', `${check.detail}; only tokens verified in the last minute are served, retry shortly`, {
        'retry-after': '5',
      });
    case 'missing':
      return new ApiError(401, 'unauthorized', 'missing bearer token (send "Authorization: Bearer amc_...")', {
        'www-authenticate': 'Bearer',
      });
    case 'revoked':
      return new ApiError(403, 'token_disabled', `token ${check.tokenId} has been revoked`);
    default:
      // Unknown id, wrong secret and malformed tokens look alike from outside: nothing to learn by probing.
      return new ApiError(401, 'unauthorized', 'invalid bearer token', { 'www-authenticate': 'Bearer error="invalid_token"' });
  }
}

function summariseIssues(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): string {
  const listed = issues
    .slice(0, MAX_LISTED_ISSUES)
    .map((issue) => `${issue.path.map(String).join('.') || '(body)'}: ${issue.message}`);
  const more = issues.length > MAX_LISTED_ISSUES ? `; and ${issues.length - MAX_LISTED_ISSUES} more` : '';
  return `invalid decision request: ${listed.join('; ')}${more}`;
}

/**
 * 413 for bodies over the limit. A declared length is checked up front (Node then refuses a body longer than
 * declared), which keeps the adapter's fast body read; chunked uploads are counted while they are read.
 */
function limitBody(maxBytes: number): MiddlewareHandler<AppEnv> {
  const tooLarge = () => {
    throw new ApiError(413, 'payload_too_large', `request body exceeds the limit of ${maxBytes} bytes`, { connection: 'close' });
  };
  const counting = bodyLimit({ maxSize: maxBytes, onError: tooLarge });
  return async (c, next) => {
    const declared = c.req.header('content-length');
    if (declared === undefined || c.req.header('transfer-encoding') !== undefined) return counting(c, next);
    if (Number(declared) > maxBytes) tooLarge();
    await next();
  };
}

/** The HTTP surface: health, readiness and the planner-decision endpoint. Every error body is `{ error: { code, message } }`. */
export function createControlPlaneApp(deps: ControlPlaneAppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.use(async (c, next) => {
    const started = performance.now();
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    c.set('requestId', requestId);
    // Set before the answer exists: added to an existing answer, Hono would copy it into a new Response.
    c.header('x-request-id', requestId);
    await next();
    if (c.req.path === DECISION_PATH) observeDecision(c, deps.metrics, started);
    if (c.get('quiet')) return;
    deps.logger.info('request', {
      requestId: c.get('requestId'),
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      latencyMs: Math.round((performance.now() - started) * 100) / 100,
      tokenId: c.get('tokenId'),
      provider: c.get('route')?.provider,
      model: c.get('route')?.model,
      upstreamLatencyMs: c.get('upstreamLatencyMs'),
      errorCode: c.get('errorCode'),
    });
  });

  app.onError((error, c) => {
    const apiError =
      error instanceof ApiError ? error : new ApiError(500, 'internal_error', 'internal error (see the service log)');
    if (!(error instanceof ApiError)) {
      deps.logger.error('unhandled error', { requestId: c.get('requestId'), error: `${error.name}: ${error.message}` });
    }
    c.set('errorCode', apiError.code);
    const status: ContentfulStatusCode = apiError.status === 499 ? (499 as UnofficialStatusCode) : apiError.status;
    return c.json(errorBody(apiError), status, apiError.headers);
  });

  app.notFound((c) => {
    throw new ApiError(404, 'not_found', `no route for ${c.req.method} ${c.req.path}`);
  });

  app.get('/healthz', (c) => c.json({ status: 'ok' }));

  app.get('/readyz', (c) => {
    if (deps.inFlight.draining) throw new ApiError(503, 'shutting_down', 'the service is shutting down');
    const reason = deps.upstream.notReadyReason();
    if (reason) throw new ApiError(503, 'provider_not_configured', reason);
    const storeReason = deps.storeNotReadyReason();
    if (storeReason) throw new ApiError(503, 'store_unavailable', storeReason);
    return c.json({ status: 'ready' });
  });

  app.get('/metrics', async (c) => {
    if (!mayReadMetrics(c.env?.incoming?.socket.remoteAddress, c.req.header('authorization'), deps.metricsToken)) {
      throw new ApiError(401, 'unauthorized', 'metrics are served to loopback clients, or with the metrics token (--metrics-token)', {
        'www-authenticate': 'Bearer',
      });
    }
    return c.text(await deps.metricsText(), 200, { 'content-type': deps.metrics.registry.contentType });
  });

  app.post(
    DECISION_PATH,
    async (c, next) => {
      // Counted from the first byte, so shutdown waits for every request that got past the draining check.
      if (deps.inFlight.draining) {
        throw new ApiError(503, 'shutting_down', 'the service is shutting down; retry on another replica', { connection: 'close' });
      }
      const release = deps.inFlight.begin();
      // Under Node the answer is written after the handler returns: count the request until its socket is done.
      const outgoing = c.env?.outgoing;
      outgoing?.once('close', release);
      try {
        await next();
      } finally {
        if (!outgoing) release();
      }
    },
    async (c, next) => {
      // A valid token is checked first: failures by others (behind the same NAT, or guessing this token's id)
      // never refuse it. Failures are counted per address and per token id, each blocked on its own.
      const check = await deps.tokens.verify(c.req.header('authorization'));
      if (!check.ok) {
        if (check.tokenId) c.set('tokenId', check.tokenId);
        // An outage is not the client's fault: it does not count against anyone.
        if (check.reason === 'unavailable') {
          deps.metrics.authFailures.inc({ reason: check.reason });
          throw authFailure(check);
        }
        const address = clientAddress(c, deps.trustProxy);
        const keys = [addressKey(address), ...(check.tokenId ? [tokenIdKey(check.tokenId)] : [])];
        const blockedFor = Math.max(...keys.map((key) => deps.authFailures.blockedForSeconds(key)));
        const samples = keys.map((key) => deps.authFailures.recordFailure(key));
        if (blockedFor > 0) {
          c.set('quiet', true);
          deps.metrics.authFailures.inc({ reason: 'address_blocked' });
          throw new ApiError(429, 'too_many_auth_failures', `too many failed authentications from this address or for this token; retry in ${blockedFor} s`, {
            'retry-after': String(blockedFor),
          });
        }
        deps.metrics.authFailures.inc({ reason: check.reason });
        if (!samples.some((sample) => sample.log)) c.set('quiet', true);
        const blocking = samples.find((sample) => sample.log && sample.blocked);
        if (blocking?.log) {
          deps.logger.warn('too many failed authentications; their further failures are refused for the rest of the minute', {
            address,
            ...(check.tokenId && { tokenId: check.tokenId }),
            failuresInWindow: blocking.failuresInWindow,
          });
        }
        throw authFailure(check);
      }
      c.set('tokenId', check.record.id);
      const admission = await deps.limits.admit(check.record.id, deps.policyFor(check.record));
      if (!admission.allowed) {
        if (admission.kind === 'rate') deps.metrics.rateLimited.inc();
        else deps.metrics.quotaRefusals.inc({ quota: admission.quota ?? 'unknown' });
        throw new ApiError(429, admission.kind === 'rate' ? 'rate_limited' : 'quota_exceeded', admission.message, {
          'retry-after': String(admission.retryAfterSeconds),
        });
      }
      c.set('route', deps.upstream.route(check.record));
      await next();
    },
    limitBody(deps.bodyLimitBytes),
    async (c) => decide(c, deps),
  );

  return app;
}

async function decide(c: Context<AppEnv>, deps: ControlPlaneAppDeps): Promise<Response> {
  let json: unknown;
  try {
    json = JSON.parse(await c.req.text());
  } catch (error) {
    throw new ApiError(400, 'invalid_json', `request body is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = DecisionRequestSchema.safeParse(json);
  if (!parsed.success) throw new ApiError(400, 'invalid_request', summariseIssues(parsed.error.issues));

  const started = performance.now();
  let decision;
  try {
    decision = await deps.upstream.decide(parsed.data, c.get('route'), { caller: c.req.raw.signal, shutdown: deps.inFlight.abortSignal });
  } finally {
    c.set('upstreamLatencyMs', Math.round((performance.now() - started) * 100) / 100);
  }
  await recordUsage(c, deps, decision.usage);
  // Only the call itself leaves the service: the model's text and thinking stay here (seed: proxy surface).
  const body: ProxyDecisionResponse = { tool_name: decision.tool, arguments: decision.args, usage: decision.usage };
  return c.json(body);
}

async function recordUsage(c: Context<AppEnv>, deps: ControlPlaneAppDeps, usage: { inputTokens: number; outputTokens: number }): Promise<void> {
  const tokenId = c.get('tokenId');
  const cost = costMicroUsd(deps.pricing, c.get('route').model, usage);
  deps.metrics.usageTokens.inc({ token: tokenId, direction: 'input' }, usage.inputTokens);
  deps.metrics.usageTokens.inc({ token: tokenId, direction: 'output' }, usage.outputTokens);
  deps.metrics.usageCost.inc({ token: tokenId }, cost / 1_000_000);
  // Counted before the answer leaves, so the host's next decision is admitted against it (a token with quotas may
  // be at its limit now). Only such a token's write is waited for: stores send the others' usage in batches. A store
  // that cannot write keeps the usage to write later, and the answer goes out regardless.
  await deps.limits.record(tokenId, { decisions: 1, ...usage, costMicroUsd: cost }).catch((error: Error) => {
    deps.logger.warn('usage not recorded', { tokenId, error: error.message });
  });
}

function observeDecision(c: Context<AppEnv>, metrics: ControlPlaneMetrics, started: number): void {
  const route = c.get('route');
  metrics.decisions.inc({ provider: route?.provider ?? 'none', model: route?.model ?? 'none', status: String(c.res.status) });
  metrics.latency.observe((performance.now() - started) / 1000);
  const upstreamMs = c.get('upstreamLatencyMs');
  if (route && upstreamMs !== undefined) metrics.upstreamLatency.observe({ provider: route.provider, model: route.model }, upstreamMs / 1000);
}

/** The socket's peer, or behind a trusted proxy the address that proxy appended last to X-Forwarded-For. */
function clientAddress(c: Context<AppEnv>, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',').at(-1)?.trim();
    if (forwarded) return forwarded.slice(0, 64);
  }
  return c.env?.incoming?.socket.remoteAddress ?? 'unknown';
}
