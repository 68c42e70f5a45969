import type { ConnectionReport } from '../shared/connection-report';
import { htmlPageIn, summariseBody, ToolCallUnavailable, type DecisionRequest, type ToolCallingClient } from '@amc/provider-clients';
import { buildToolCallingClient } from '../core/runtime/build-planner';
import { aiPlannerSetup, missingForAiPlanner, type RuntimeConfig } from '../core/runtime/config';
import { say, type Saying } from '../shared/said';
import { capitalized, formatCount } from '../shared/task-words';

/**
 * "Test connection": one tiny real request with the configured planner settings — direct: one decision from the
 * provider; cloud-proxy: the control plane's health, then one authenticated decision — reported in plain words.
 * The smallest request that proves the whole path: one short message, one tool to call, a few output tokens.
 */

const PING_TOOL = {
  name: 'connection_ok',
  description: 'Call this to confirm the connection works.',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
};

export const CONNECTION_TEST_REQUEST: DecisionRequest = {
  system: 'This is a connection test. Call the connection_ok tool.',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Call connection_ok.' }] }],
  tools: [PING_TOOL],
  maxOutputTokens: 64,
};

const HEALTH_TIMEOUT_MS = 5_000;
/** An answer without the tool call still proves the key, the model and the route. */
const ANSWERED_KINDS = new Set(['no-tool-call', 'unknown-tool', 'several-tool-calls']);

interface CheckOptions {
  signal?: AbortSignal;
  /** For tests: a client other than the one the settings build. */
  client?: ToolCallingClient;
  fetch?: typeof fetch;
}

function describeTarget(config: RuntimeConfig): Saying {
  const setup = aiPlannerSetup(config);
  const url = config.settings.controlPlane.url;
  if (setup.transport === 'cloud-proxy') return url ? say('connection.targetCloudProxyAt', { url }) : say('connection.targetCloudProxy');
  return say(setup.provider === 'anthropic' ? 'connection.targetAnthropic' : 'connection.targetOpenAi');
}

type Found = Pick<ConnectionReport, 'result' | 'message' | 'said'>;

/** A result main words itself: the English message with its code. */
const found = (result: ConnectionReport['result'], message: Saying): Found => ({ result, message: message.text, said: message.said });

/**
 * A provider's refused key in the reader's words: which key to check, where, and the HTTP status (the client's
 * sentence is ours, not the provider's, so it is worded from its facts rather than quoted). The control plane's
 * refusal carries its own words, which follow ours as they are.
 */
function refusedKey(setup: ReturnType<typeof aiPlannerSetup>, text: string): Found {
  const status = /\(HTTP (\d{3})\)/.exec(text)?.[1];
  if (setup.transport === 'cloud-proxy' || !status) return found('wrong-key', say('connection.wrongKey', { said: summariseBody(text) }));
  const [provider, env] = setup.provider === 'openai' ? ['OpenAI', 'OPENAI_API_KEY'] : ['Anthropic', 'ANTHROPIC_API_KEY'];
  return found('wrong-key', say('connection.wrongDirectKey', { provider, status, env }));
}

function classify(error: unknown, setup: ReturnType<typeof aiPlannerSetup>): Found {
  const text = error instanceof Error ? error.message : String(error);
  const kind = error instanceof ToolCallUnavailable ? error.kind : undefined;
  const page = htmlPageIn(text);
  if (page) {
    const status = /\(HTTP (\d{3})\)/.exec(text)?.[1];
    return { result: 'html-page', message: `${capitalized(page)} answered${status ? ` (HTTP ${status})` : ''} instead of the model's API: check the URL and any proxy or captive portal in the way.` };
  }
  const said = summariseBody(text);
  switch (kind) {
    case 'auth':
      return refusedKey(setup, text);
    case 'rate-limited':
      return found('rate-limited', say('connection.rateLimited', { said }));
    case 'unreachable':
    case 'timeout':
      return found('unreachable', say('connection.unreachable', { said }));
    case 'rejected':
      if (/\b404\b|model/i.test(text)) return found('unknown-model', say('connection.unknownModel', { said }));
      break;
    default:
  }
  return { result: 'failed', message: said };
}

async function checkHealth(baseUrl: string, doFetch: typeof fetch, signal?: AbortSignal): Promise<Found | null> {
  const urlSetting = 'controlPlane.url';
  let url: URL;
  try {
    url = new URL('/healthz', baseUrl);
  } catch {
    return found('not-configured', say('connection.notAUrl', { urlSetting, url: baseUrl }));
  }
  const timeout = AbortSignal.timeout(HEALTH_TIMEOUT_MS);
  try {
    const response = await doFetch(url, { signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
    const body = await response.text();
    const page = htmlPageIn(body);
    if (page) return { result: 'html-page', message: `The control plane's address answered with ${page}, not the control plane's API: check the Control-plane URL and any proxy or captive portal in the way.` };
    if (!response.ok) return found('failed', say('connection.healthCheckFailed', { status: response.status, said: summariseBody(body, 160) }));
    return null;
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : error instanceof Error ? error.message : String(error);
    return found('unreachable', say('connection.controlPlaneUnreachable', { origin: url.origin, cause, urlSetting }));
  }
}

export async function testConnection(config: RuntimeConfig, options: CheckOptions = {}): Promise<ConnectionReport> {
  const enabled: RuntimeConfig = { ...config, settings: { ...config.settings, aiPlanner: { ...config.settings.aiPlanner, enabled: true } } };
  const setup = aiPlannerSetup(enabled);
  const target = describeTarget(enabled);
  const model = setup.transport === 'direct' ? setup.model : (enabled.settings.aiPlanner.model || null);
  const report = (outcome: Found, latencyMs: number | null = null): ConnectionReport => ({ ...outcome, model, latencyMs, target: target.text, targetSaid: target.said });
  const missing = missingForAiPlanner(enabled);
  if (missing.length) return report({ result: 'not-configured', message: missing.join('; ') });
  if (setup.transport === 'cloud-proxy') {
    const unhealthy = await checkHealth(enabled.settings.controlPlane.url, options.fetch ?? fetch, options.signal);
    if (unhealthy) return report(unhealthy);
  }
  const client = options.client ?? buildToolCallingClient(enabled);
  const started = performance.now();
  try {
    await client.decide(CONNECTION_TEST_REQUEST, { ...(options.signal && { signal: options.signal }) });
  } catch (error) {
    if (!(error instanceof ToolCallUnavailable && error.kind && ANSWERED_KINDS.has(error.kind))) return report(classify(error, setup));
  }
  const latencyMs = Math.round(performance.now() - started);
  const ms = formatCount(latencyMs);
  return report(found('ok', model ? say('connection.okModel', { model, ms }) : say('connection.okControlPlane', { ms })), latencyMs);
}
