import {
  redactSecrets,
  ToolCallUnavailable,
  type DecisionRequest,
  type ProviderClientOptions,
  type ProviderName,
  type ToolCallDecision,
  type ToolCallingClient,
} from '@amc/provider-clients';
import { ApiError } from './errors';
import { DEFAULT_MODELS } from '../shared/settings';
import type { ControlPlaneConfig, ProviderKeys } from './config';
import type { TokenRecord } from './token-store';
import { createBufferedFetch } from './buffered-fetch';

/** What the service needs to build a provider client: the runtime's client options, without extended thinking. */
export type ProviderClientSettings = Omit<ProviderClientOptions, 'thinkingBudgetTokens'>;
export type ProviderClientFactory = (settings: ProviderClientSettings) => ToolCallingClient;

export interface UpstreamRoute {
  provider: ProviderName;
  model: string;
}

/**
 * Chooses provider and model per token (falling back to the service's defaults), keeps one client per
 * provider+model, enforces the upstream timeout, and turns every upstream failure into an ApiError.
 */
export class Upstream {
  private readonly clients = new Map<string, ToolCallingClient>();
  /** Every provider client's transport: kept-alive connections, answers read whole (see buffered-fetch.ts). */
  private readonly transport = createBufferedFetch();

  constructor(
    private readonly config: ControlPlaneConfig,
    private readonly keys: ProviderKeys,
    private readonly factory: ProviderClientFactory,
  ) {}

  route(token: TokenRecord): UpstreamRoute {
    const provider = token.provider ?? this.config.provider;
    const model = token.model ?? (provider === this.config.provider ? this.config.model : DEFAULT_MODELS[provider]);
    return { provider, model };
  }

  /** Null when the default provider has a key; otherwise the reason the service is not ready. */
  notReadyReason(): string | null {
    return this.keys[this.config.provider] ? null : missingKeyMessage(this.config.provider);
  }

  /**
   * One provider call, bounded by the upstream timeout and cancelled when the caller goes away or the shutdown
   * grace is over. Listeners are removed afterwards: the shutdown signal lives as long as the service.
   */
  async decide(request: DecisionRequest, route: UpstreamRoute, cancelWhen: { caller: AbortSignal; shutdown: AbortSignal }): Promise<ToolCallDecision> {
    const client = this.clientFor(route);
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error('upstream timeout'));
    }, this.config.upstreamTimeoutMs);
    const cancel = () => controller.abort(new Error('decision cancelled'));
    const signals = [cancelWhen.caller, cancelWhen.shutdown];
    for (const signal of signals) {
      if (signal.aborted) cancel();
      else signal.addEventListener('abort', cancel, { once: true });
    }
    try {
      return await client.decide(request, { signal: controller.signal });
    } catch (error) {
      throw this.toApiError(error, route, timedOut, cancelWhen);
    } finally {
      clearTimeout(timer);
      for (const signal of signals) signal.removeEventListener('abort', cancel);
    }
  }

  /** Closes the idle provider connections. */
  close(): void {
    this.transport.close();
  }

  private clientFor(route: UpstreamRoute): ToolCallingClient {
    const apiKey = this.keys[route.provider];
    if (!apiKey) throw new ApiError(503, 'provider_not_configured', missingKeyMessage(route.provider));
    const cacheKey = `${route.provider}\n${route.model}`;
    let client = this.clients.get(cacheKey);
    if (!client) {
      const baseURL = this.config.baseUrls[route.provider];
      client = this.factory({
        provider: route.provider,
        apiKey,
        model: route.model,
        ...(baseURL ? { baseURL } : {}),
        // Our own timer fires first, so a slow provider is reported as a timeout (504), not as a provider error.
        timeoutMs: this.config.upstreamTimeoutMs + 1000,
        fetch: this.transport.fetch,
      });
      this.clients.set(cacheKey, client);
    }
    return client;
  }

  private toApiError(error: unknown, route: UpstreamRoute, timedOut: boolean, cancelWhen: { caller: AbortSignal; shutdown: AbortSignal }): ApiError {
    const who = `${route.provider} (${route.model})`;
    if (timedOut || (error instanceof ToolCallUnavailable && error.kind === 'timeout')) {
      return new ApiError(504, 'upstream_timeout', `${who} did not answer within ${this.config.upstreamTimeoutMs / 1000} s`);
    }
    if (cancelWhen.shutdown.aborted) return new ApiError(503, 'shutting_down', 'the decision was cancelled before the provider answered');
    // Nobody reads this answer; the status is for the log, which should not blame a shutdown.
    if (cancelWhen.caller.aborted) return new ApiError(499, 'client_closed', 'the host went away before the provider answered');
    if (error instanceof ToolCallUnavailable && error.kind === 'auth') {
      // The client's own hint names the host's key settings; behind the service only its operator can fix the key.
      const status = /HTTP (\d{3})/.exec(error.message)?.[1];
      const { variable, field } = keySettingOf(route.provider);
      return new ApiError(
        502,
        'upstream_error',
        `${who}: the provider rejected the control plane's API key${status ? ` (HTTP ${status})` : ''}; the control plane's ` +
          `operator must set a valid ${variable} (or "${field}" in its secrets file), nothing needs changing on this host`,
      );
    }
    if (error instanceof ToolCallUnavailable) return new ApiError(502, 'upstream_error', `${who}: ${this.redact(error.message)}`);
    const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return new ApiError(502, 'upstream_error', `${who}: unexpected failure: ${this.redact(detail)}`);
  }

  /** Provider messages are passed on: they go through the one redaction step, with this service's keys, first. */
  private redact(message: string): string {
    return redactSecrets(message, Object.values(this.keys));
  }
}

function keySettingOf(provider: ProviderName): { variable: string; field: string } {
  return provider === 'anthropic'
    ? { variable: 'ANTHROPIC_API_KEY', field: 'anthropicApiKey' }
    : { variable: 'OPENAI_API_KEY', field: 'openaiApiKey' };
}

function missingKeyMessage(provider: ProviderName): string {
  const { variable, field } = keySettingOf(provider);
  return `no API key for ${provider}: set ${variable} or "${field}" in the secrets file`;
}
