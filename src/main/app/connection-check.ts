import type { ConnectionReport } from '../../shared/connection-report';
import { htmlPageIn, summariseBody, ToolCallUnavailable, type DecisionRequest, type ToolCallingClient } from '@amc/provider-clients';
import { buildToolCallingClient } from '../runtime/build-planner';
import { aiPlannerSetup, missingForAiPlanner, type RuntimeConfig } from '../runtime/config';
import { capitalized, formatCount } from '../../shared/task-words';

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

function describeTarget(config: RuntimeConfig): string {
  const setup = aiPlannerSetup(config);
  if (setup.transport === 'cloud-proxy') return `cloud proxy${config.settings.controlPlane.url ? ` at ${config.settings.controlPlane.url}` : ''}`;
  return `${setup.provider === 'anthropic' ? 'Anthropic' : 'OpenAI-compatible server'} direct`;
}

function classify(error: unknown): Pick<ConnectionReport, 'result' | 'message'> {
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
      return { result: 'wrong-key', message: `The key or token was refused: ${said}` };
    case 'rate-limited':
      return { result: 'rate-limited', message: `Rate limited: ${said}` };
    case 'unreachable':
    case 'timeout':
      return { result: 'unreachable', message: `Unreachable: ${said}` };
    case 'rejected':
      if (/\b404\b|model/i.test(text)) return { result: 'unknown-model', message: `Unknown model or wrong URL: ${said}` };
      break;
    default:
  }
  return { result: 'failed', message: said };
}

async function checkHealth(baseUrl: string, doFetch: typeof fetch, signal?: AbortSignal): Promise<Pick<ConnectionReport, 'result' | 'message'> | null> {
  let url: URL;
  try {
    url = new URL('/healthz', baseUrl);
  } catch {
    return { result: 'not-configured', message: `The Control-plane URL "${baseUrl}" is not a URL.` };
  }
  const timeout = AbortSignal.timeout(HEALTH_TIMEOUT_MS);
  try {
    const response = await doFetch(url, { signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
    const body = await response.text();
    const page = htmlPageIn(body);
    if (page) return { result: 'html-page', message: `The control plane's address answered with ${page}, not the control plane's API: check the Control-plane URL and any proxy or captive portal in the way.` };
    if (!response.ok) return { result: 'failed', message: `The control plane's health check answered HTTP ${response.status}: ${summariseBody(body, 160)}` };
    return null;
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : error instanceof Error ? error.message : String(error);
    return { result: 'unreachable', message: `Unreachable: the control plane at ${url.origin} did not answer (${cause}); check the Control-plane URL.` };
  }
}

export async function testConnection(config: RuntimeConfig, options: CheckOptions = {}): Promise<ConnectionReport> {
  const enabled: RuntimeConfig = { ...config, settings: { ...config.settings, aiPlanner: { ...config.settings.aiPlanner, enabled: true } } };
  const setup = aiPlannerSetup(enabled);
  const target = describeTarget(enabled);
  const model = setup.transport === 'direct' ? setup.model : (enabled.settings.aiPlanner.model || null);
  const report = (found: Pick<ConnectionReport, 'result' | 'message'>, latencyMs: number | null = null): ConnectionReport => ({ ...found, model, latencyMs, target });
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
    if (!(error instanceof ToolCallUnavailable && error.kind && ANSWERED_KINDS.has(error.kind))) return report(classify(error));
  }
  const latencyMs = Math.round(performance.now() - started);
  const who = model ? `${model} answered` : 'the control plane answered (it chooses the model)';
  return report({ result: 'ok', message: `OK: ${who} in ${formatCount(latencyMs)} ms.` }, latencyMs);
}
