/** Starts a control plane against a loopback provider fake, with a fresh tokens file and captured logs. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ControlPlaneConfig, ProviderKeys } from '../../src/control-plane/config';
import type { LimitsStore } from '../../src/control-plane/limits';
import { createJsonLogger } from '../../src/control-plane/logger';
import { createToken, revokeToken } from '../../src/control-plane/token-store';
import { startControlPlane, type RunningControlPlane } from '../../src/control-plane/server';
import type { ProviderClientFactory } from '../../src/control-plane/upstream';
import type { DecisionRequest } from '@amc/provider-clients';
import { startProviderFake, type FakePolicy, type FakeProvider, type ProviderFake } from '../fakes/index';

export interface TestControlPlane {
  service: RunningControlPlane;
  fake: ProviderFake;
  config: ControlPlaneConfig;
  /** A valid token, a revoked one, and the revoked one's id. */
  token: string;
  tokenId: string;
  revokedToken: string;
  /** Every log line the service wrote, parsed. */
  logs: Array<Record<string, unknown>>;
  /** The raw log text, for "never contains" checks. */
  logText(): string;
  dir: string;
  post(body: unknown, init?: { token?: string | null; headers?: Record<string, string>; rawBody?: string; signal?: AbortSignal }): Promise<Response>;
  stop(): Promise<void>;
}

export interface TestControlPlaneOptions {
  provider?: FakeProvider;
  policy: FakePolicy;
  config?: Partial<ControlPlaneConfig>;
  /** Replaces the provider key the service holds (default: the fake's accepted key). */
  apiKey?: string | null;
  clientFactory?: ProviderClientFactory;
  /** More provider keys, e.g. for a token that overrides the provider. */
  extraKeys?: ProviderKeys;
  /** The rate buckets and usage, instead of the service's own beside the tokens file. */
  limits?: LimitsStore;
}

export async function startTestControlPlane(options: TestControlPlaneOptions): Promise<TestControlPlane> {
  const provider = options.provider ?? 'anthropic';
  const dir = await mkdtemp(path.join(tmpdir(), 'amc-cp-'));
  const fake = await startProviderFake(provider, options.policy);
  const tokensFile = path.join(dir, 'tokens.json');
  const { token, record } = await createToken(tokensFile, { name: 'test-host' });
  const revoked = await createToken(tokensFile, { name: 'revoked-host' });
  await revokeToken(tokensFile, revoked.record.id);
  const config: ControlPlaneConfig = {
    host: '127.0.0.1',
    port: 0,
    provider,
    model: `fake-${provider}-model`,
    tokensFile,
    upstreamTimeoutMs: 5_000,
    bodyLimitBytes: 8 * 1024 * 1024,
    rateLimit: { requestsPerMinute: 6_000, burst: 100 },
    shutdownGraceMs: 10_000,
    quotas: {},
    pricing: {},
    redisUrl: null,
    workers: 1,
    metricsToken: null,
    maxConnections: 1000,
    headersTimeoutMs: 10_000,
    requestTimeoutMs: 30_000,
    authFailuresPerMinute: 1000,
    trustProxy: false,
    ...options.config,
    baseUrls: { [provider]: fake.baseURL, ...options.config?.baseUrls },
  };
  const lines: string[] = [];
  const apiKey = options.apiKey === undefined ? fake.apiKey : options.apiKey;
  const service = await startControlPlane({
    config,
    keys: { ...(apiKey === null ? {} : { [provider]: apiKey }), ...options.extraKeys },
    logger: createJsonLogger((line) => lines.push(line)),
    ...(options.clientFactory ? { clientFactory: options.clientFactory } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
    tokenReloadIntervalMs: 0,
  });
  const post: TestControlPlane['post'] = (body, init = {}) => {
    const presented = init.token === undefined ? token : init.token;
    return fetch(`${service.url}/v1/planner/decision`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(presented === null ? {} : { authorization: `Bearer ${presented}` }),
        ...init.headers,
      },
      body: init.rawBody ?? JSON.stringify(body),
      ...(init.signal ? { signal: init.signal } : {}),
    });
  };
  return {
    service,
    fake,
    config,
    token,
    tokenId: record.id,
    revokedToken: revoked.token,
    get logs() {
      return lines.join('').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    },
    logText: () => lines.join(''),
    dir,
    post,
    async stop() {
      await service.close();
      await fake.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A small valid decision request shaped like the AI planner's: goal + Scene in the user turn, two tools. */
export function decisionRequest(overrides: Partial<DecisionRequest> = {}): DecisionRequest {
  const scene = {
    elements: [{ id: 'e1', type: 'button', text: 'Settings', bounds: { left: 0, top: 0, right: 100, bottom: 50 } }],
  };
  return {
    system: 'You operate an Android phone. Call exactly one tool.',
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: `<goal>Open Settings</goal>\n<scene>${JSON.stringify(scene)}</scene>` },
          { type: 'image', mediaType: 'image/png', data: SCREENSHOT_BASE64 },
        ],
      },
    ],
    tools: [
      {
        name: 'tap',
        description: 'Tap an element of the current Scene',
        inputSchema: { type: 'object', properties: { element_id: { type: 'string' } }, required: ['element_id'] },
      },
      {
        name: 'finish_task',
        description: 'End the task',
        inputSchema: {
          type: 'object',
          properties: { success: { type: 'boolean' }, reason: { type: 'string' } },
          required: ['success', 'reason'],
        },
      },
    ],
    maxOutputTokens: 1024,
    ...overrides,
  };
}

/** Distinctive base64 so a test can prove image bytes never reach the logs. */
export const SCREENSHOT_BASE64 = Buffer.from('PNG-BYTES-THAT-MUST-NOT-BE-LOGGED-0123456789').toString('base64');

/** A promise with its resolve function, to hold a fake provider's reply until the test releases it. */
export function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
