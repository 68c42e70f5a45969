import { randomUUID } from 'node:crypto';
import type { HttpBindings } from '@hono/node-server';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode, UnofficialStatusCode } from 'hono/utils/http-status';
import { bodyLimit } from 'hono/body-limit';
import { DecisionRequestSchema, type ProxyDecisionResponse } from '../shared/decision';
import { ApiError, errorBody } from './errors';
import type { InFlightDecisions } from './in-flight';
import type { Logger } from './logger';
import type { TokenBucketRateLimiter } from './rate-limiter';
import type { TokenCheck, TokenVerifier } from './token-store';
import type { Upstream, UpstreamRoute } from './upstream';

export interface ControlPlaneAppDeps {
  tokens: TokenVerifier;
  upstream: Upstream;
  rateLimiter: TokenBucketRateLimiter;
  inFlight: InFlightDecisions;
  logger: Logger;
  bodyLimitBytes: number;
}

type AppEnv = {
  Bindings: Partial<HttpBindings>;
  Variables: {
    requestId: string;
    tokenId: string;
    route: UpstreamRoute;
    upstreamLatencyMs: number;
    errorCode: string;
  };
};

export const DECISION_PATH = '/v1/planner/decision';
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;
const MAX_LISTED_ISSUES = 5;

function authFailure(check: Exclude<TokenCheck, { ok: true }>): ApiError {
  switch (check.reason) {
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
    c.set('requestId', incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID());
    await next();
    c.header('x-request-id', c.get('requestId'));
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
    return c.json({ status: 'ready' });
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
      const check = await deps.tokens.verify(c.req.header('authorization'));
      if (!check.ok) {
        if (check.tokenId) c.set('tokenId', check.tokenId);
        throw authFailure(check);
      }
      c.set('tokenId', check.record.id);
      const rate = deps.rateLimiter.take(check.record.id);
      if (!rate.allowed) {
        throw new ApiError(429, 'rate_limited', `rate limit reached for token ${check.record.id}; retry in ${rate.retryAfterSeconds} s`, {
          'retry-after': String(rate.retryAfterSeconds),
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
  // Only the call itself leaves the service: the model's text and thinking stay here (seed: proxy surface).
  const body: ProxyDecisionResponse = { tool_name: decision.toolName, arguments: decision.arguments, usage: decision.usage };
  return c.json(body);
}
