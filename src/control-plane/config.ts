import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { ProviderName } from '@amc/provider-clients';
import { DEFAULT_MODELS } from '../shared/settings';
import { issuesSaidNamed } from '../shared/issue-said';
import { say, type Said, type Saying } from '../shared/said';
import { QuotasSchema, type Quotas, type RateLimit } from './limits';
import { PricingSchema, type Pricing } from './pricing';

/** Resolved service configuration: defaults < config file < environment < command-line flags. */
export interface ControlPlaneConfig {
  host: string;
  port: number;
  provider: ProviderName;
  model: string;
  baseUrls: Partial<Record<ProviderName, string>>;
  tokensFile: string;
  upstreamTimeoutMs: number;
  bodyLimitBytes: number;
  rateLimit: RateLimit;
  /** Service-wide quotas per token (a token's own overrides win). */
  quotas: Quotas;
  /** USD per million tokens by model, for the cost counters and cost quotas; models not listed cost 0. */
  pricing: Pricing;
  /** How long shutdown waits for in-flight decisions before aborting them. */
  shutdownGraceMs: number;
  /** Shared state (tokens, rate buckets, usage) in Redis; null: the tokens file and this host's memory. */
  redisUrl: string | null;
  /** Processes serving the port (node:cluster); 1 serves from this process. */
  workers: number;
  /** Bearer token for GET /metrics from other machines; loopback reads it without one. */
  metricsToken: string | null;
  /** Open connections per process; more are refused at once so the process keeps its file descriptors. */
  maxConnections: number;
  /** Time a client has to send its request headers, and then the whole request. */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** Failed authentications per client address and minute before that address gets 429 without a check. */
  authFailuresPerMinute: number;
  /** Take the client address from the last X-Forwarded-For entry (only behind a proxy that sets it). */
  trustProxy: boolean;
}

/** Provider API keys; they come only from the environment or a secrets file, never from the config file. */
export type ProviderKeys = Partial<Record<ProviderName, string>>;

/** The service's configuration cannot be used: its English words, and the code that words them for the reader. */
export class ControlPlaneConfigError extends Error {
  override name = 'ControlPlaneConfigError';
  readonly said: Said;
  constructor({ text, said }: Saying) {
    super(text);
    this.said = said;
  }
}

const ProviderSchema = z.enum(['anthropic', 'openai']);

/** The config file's shape; every field optional. Unknown fields (and keys put in the wrong place) are errors. */
const ConfigFileSchema = z.strictObject({
  host: z.string().min(1).optional(),
  port: z.number().int().min(0).max(65535).optional(),
  provider: ProviderSchema.optional(),
  model: z.string().min(1).optional(),
  anthropicBaseUrl: z.url().optional(),
  openaiBaseUrl: z.url().optional(),
  tokensFile: z.string().min(1).optional(),
  upstreamTimeoutSeconds: z.number().positive().max(600).optional(),
  bodyLimitBytes: z.number().int().min(1024).max(64 * 1024 * 1024).optional(),
  rateLimit: z
    .strictObject({
      requestsPerMinute: z.number().positive().optional(),
      burst: z.number().int().min(1).optional(),
    })
    .optional(),
  shutdownGraceSeconds: z.number().min(0).max(3600).optional(),
  quotas: QuotasSchema.optional(),
  pricing: PricingSchema.optional(),
  redisUrl: z.string().regex(/^rediss?:\/\//, 'must start with redis:// or rediss://').optional(),
  workers: z.number().int().min(1).max(64).optional(),
  metricsToken: z.string().min(16, 'must be at least 16 characters').optional(),
  maxConnections: z.number().int().min(1).max(1_000_000).optional(),
  headersTimeoutSeconds: z.number().min(0.1).max(120).optional(),
  requestTimeoutSeconds: z.number().min(0.1).max(600).optional(),
  authFailuresPerMinute: z.number().int().min(1).optional(),
  trustProxy: z.boolean().optional(),
});
type ConfigFile = z.infer<typeof ConfigFileSchema>;

/** Environment variable -> config field. Numbers are converted before validation; the message names the variable. */
const ENV_FIELDS = {
  AMC_CP_HOST: { field: 'host', kind: 'string' },
  AMC_CP_PORT: { field: 'port', kind: 'number' },
  AMC_CP_PROVIDER: { field: 'provider', kind: 'string' },
  AMC_CP_MODEL: { field: 'model', kind: 'string' },
  ANTHROPIC_BASE_URL: { field: 'anthropicBaseUrl', kind: 'string' },
  OPENAI_BASE_URL: { field: 'openaiBaseUrl', kind: 'string' },
  AMC_CP_TOKENS_FILE: { field: 'tokensFile', kind: 'string' },
  AMC_CP_UPSTREAM_TIMEOUT_SECONDS: { field: 'upstreamTimeoutSeconds', kind: 'number' },
  AMC_CP_BODY_LIMIT_BYTES: { field: 'bodyLimitBytes', kind: 'number' },
  AMC_CP_RATE_LIMIT_PER_MINUTE: { field: 'rateLimit.requestsPerMinute', kind: 'number' },
  AMC_CP_RATE_LIMIT_BURST: { field: 'rateLimit.burst', kind: 'number' },
  AMC_CP_SHUTDOWN_GRACE_SECONDS: { field: 'shutdownGraceSeconds', kind: 'number' },
  AMC_CP_REDIS_URL: { field: 'redisUrl', kind: 'string' },
  AMC_CP_WORKERS: { field: 'workers', kind: 'number' },
  AMC_CP_METRICS_TOKEN: { field: 'metricsToken', kind: 'string' },
  AMC_CP_MAX_CONNECTIONS: { field: 'maxConnections', kind: 'number' },
  AMC_CP_HEADERS_TIMEOUT_SECONDS: { field: 'headersTimeoutSeconds', kind: 'number' },
  AMC_CP_REQUEST_TIMEOUT_SECONDS: { field: 'requestTimeoutSeconds', kind: 'number' },
  AMC_CP_AUTH_FAILURES_PER_MINUTE: { field: 'authFailuresPerMinute', kind: 'number' },
  AMC_CP_TRUST_PROXY: { field: 'trustProxy', kind: 'boolean' },
} as const;

const KEY_FIELDS = /api[-_]?key|secret/i;
const SECRET_ENV = new Set(['AMC_CP_REDIS_URL', 'AMC_CP_METRICS_TOKEN']);

/** The issues in zod's English (the text) and by code under the same names (the reader's language). */
function invalid(code: 'controlPlane.configInvalid' | 'controlPlane.environmentInvalid' | 'controlPlane.optionInvalid', english: string, error: z.ZodError, nameOf: (path: string) => string, values: Record<string, string> = {}): ControlPlaneConfigError {
  const issues = error.issues.map((issue) => `${nameOf(issue.path.join('.'))}: ${issue.message}`).join('; ');
  return new ControlPlaneConfigError({ text: `${english}: ${issues}`, said: { code, values: { ...values, issuesSaid: issuesSaidNamed(error.issues, nameOf) } } });
}

async function readConfigFile(file: string): Promise<ConfigFile> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new ControlPlaneConfigError(say('controlPlane.configUnreadable', { file, systemText: (error as Error).message }));
  }
  if (json && typeof json === 'object' && Object.keys(json).some((k) => KEY_FIELDS.test(k))) {
    throw new ControlPlaneConfigError(say('controlPlane.configHoldsKey', { file }));
  }
  const parsed = ConfigFileSchema.safeParse(json);
  if (!parsed.success) {
    throw invalid('controlPlane.configInvalid', `config file ${file} is invalid`, parsed.error, (p) => p || '(root)', { file });
  }
  // Relative paths in a config file mean "next to the config file", wherever the service is started from.
  const tokensFile = parsed.data.tokensFile;
  return tokensFile ? { ...parsed.data, tokensFile: path.resolve(path.dirname(file), tokensFile) } : parsed.data;
}

function convertEnvValue(value: string, kind: 'string' | 'number' | 'boolean'): unknown {
  if (kind === 'number') return /^\s*-?[\d.]+\s*$/.test(value) ? Number(value) : value;
  if (kind === 'boolean') return value === '1' || value === 'true' ? true : value === '0' || value === 'false' ? false : value;
  return value;
}

function readEnvironment(env: NodeJS.ProcessEnv): ConfigFile {
  const raw: Record<string, unknown> = {};
  for (const [name, { field, kind }] of Object.entries(ENV_FIELDS)) {
    const value = env[name];
    if (value === undefined || value === '') continue;
    const converted = convertEnvValue(value, kind);
    const [head, tail] = field.split('.') as [string, string | undefined];
    if (tail) raw[head] = { ...(raw[head] as object | undefined), [tail]: converted };
    else raw[head] = converted;
  }
  const parsed = ConfigFileSchema.safeParse(raw);
  if (!parsed.success) {
    const envName = (field: string) => {
      const entry = Object.entries(ENV_FIELDS).find(([, v]) => v.field === field);
      if (!entry) return field;
      // A Redis URL may carry a password, and the metrics token is one: named, never quoted.
      return SECRET_ENV.has(entry[0]) ? entry[0] : `${entry[0]}=${JSON.stringify(env[entry[0]])}`;
    };
    throw invalid('controlPlane.environmentInvalid', 'invalid environment', parsed.error, envName);
  }
  return parsed.data;
}

export interface LoadConfigOptions {
  configFile?: string;
  env?: NodeJS.ProcessEnv;
  /** Command-line flags; they win over file and environment. */
  overrides?: Partial<Pick<ConfigFile, 'host' | 'port' | 'tokensFile' | 'redisUrl' | 'workers' | 'metricsToken'>>;
  cwd?: string;
  /** Where the tokens file lives when nothing names one: the CLI passes `$AMC_HOME/control-plane/tokens.json`. */
  defaultTokensFile?: string;
  /** The default worker count (the CLI passes the number of cores). */
  defaultWorkers?: number;
}

/** Config field -> the command-line flag that sets it. */
const FLAGS = { host: '--host', port: '--port', tokensFile: '--tokens', redisUrl: '--redis', workers: '--workers', metricsToken: '--metrics-token' } as const;
const SECRET_FLAGS = new Set<string>(['--redis', '--metrics-token']);

/** Flags are held to the same rules as the file and the environment (a `--metrics-token` of 3 characters is refused). */
function checkOverrides(overrides: NonNullable<LoadConfigOptions['overrides']>): void {
  const given = Object.fromEntries(Object.entries(overrides).filter(([, value]) => value !== undefined));
  const parsed = ConfigFileSchema.safeParse(given);
  if (parsed.success) return;
  const flagName = (field: string) => {
    const flag = FLAGS[field as keyof typeof FLAGS] ?? field;
    // A Redis URL may carry a password, and the metrics token is one: named, never quoted.
    return SECRET_FLAGS.has(flag) ? flag : `${flag} ${JSON.stringify(given[field])}`;
  };
  throw invalid('controlPlane.optionInvalid', 'invalid option', parsed.error, flagName);
}

export async function loadControlPlaneConfig(options: LoadConfigOptions = {}): Promise<ControlPlaneConfig> {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const configFile = options.configFile ?? env.AMC_CP_CONFIG;
  if (options.overrides) checkOverrides(options.overrides);
  const fromFile = configFile ? await readConfigFile(path.resolve(cwd, configFile)) : {};
  const fromEnv = readEnvironment(env);
  const merged: ConfigFile = {
    ...fromFile,
    ...fromEnv,
    rateLimit: { ...fromFile.rateLimit, ...fromEnv.rateLimit },
    ...Object.fromEntries(Object.entries(options.overrides ?? {}).filter(([, value]) => value !== undefined)),
  };
  const provider = merged.provider ?? 'anthropic';
  // A model named for the other provider would fail on every call, so the default follows the provider.
  const model = merged.model ?? DEFAULT_MODELS[provider];
  const baseUrls: ControlPlaneConfig['baseUrls'] = {};
  if (merged.anthropicBaseUrl) baseUrls.anthropic = merged.anthropicBaseUrl;
  if (merged.openaiBaseUrl) baseUrls.openai = merged.openaiBaseUrl;
  const rateLimit = { requestsPerMinute: merged.rateLimit?.requestsPerMinute ?? 120, burst: merged.rateLimit?.burst ?? 20 };
  return {
    host: merged.host ?? '127.0.0.1',
    port: merged.port ?? 8787,
    provider,
    model,
    baseUrls,
    tokensFile: path.resolve(cwd, merged.tokensFile ?? options.defaultTokensFile ?? path.join('control-plane', 'tokens.json')),
    // Below the host's default decision timeout (30 s), so a slow provider reaches the host as a 504 with a reason.
    upstreamTimeoutMs: Math.round((merged.upstreamTimeoutSeconds ?? 25) * 1000),
    bodyLimitBytes: merged.bodyLimitBytes ?? 8 * 1024 * 1024,
    rateLimit,
    quotas: merged.quotas ?? {},
    pricing: merged.pricing ?? {},
    shutdownGraceMs: Math.round((merged.shutdownGraceSeconds ?? 60) * 1000),
    redisUrl: merged.redisUrl ?? null,
    workers: merged.workers ?? options.defaultWorkers ?? 1,
    metricsToken: merged.metricsToken ?? null,
    maxConnections: merged.maxConnections ?? 4096,
    headersTimeoutMs: Math.round((merged.headersTimeoutSeconds ?? 10) * 1000),
    // Covers the upload of the request only (an 8 MiB screenshot on a slow link), not the provider's answer.
    requestTimeoutMs: Math.round((merged.requestTimeoutSeconds ?? 30) * 1000),
    authFailuresPerMinute: merged.authFailuresPerMinute ?? 30,
    trustProxy: merged.trustProxy ?? false,
  };
}

const SecretsFileSchema = z.strictObject({
  anthropicApiKey: z.string().min(1).optional(),
  openaiApiKey: z.string().min(1).optional(),
});

export interface LoadKeysOptions {
  env?: NodeJS.ProcessEnv;
  /** JSON `{ "anthropicApiKey"?, "openaiApiKey"? }`; defaults to AMC_CP_SECRETS_FILE. */
  secretsFile?: string;
  /** Told when the secrets file can be read by other users. */
  onInsecureFile?: (message: string) => void;
}

/** Provider keys: the environment wins over the secrets file. Error messages never contain a key. */
export async function loadProviderKeys(options: LoadKeysOptions = {}): Promise<ProviderKeys> {
  const env = options.env ?? process.env;
  const file = options.secretsFile ?? env.AMC_CP_SECRETS_FILE;
  const keys: ProviderKeys = {};
  if (file) {
    let json: unknown;
    try {
      const info = await stat(file);
      if ((info.mode & 0o077) !== 0) {
        options.onInsecureFile?.(`secrets file ${file} is readable by other users (mode ${(info.mode & 0o777).toString(8)}); chmod 600 it`);
      }
      json = JSON.parse(await readFile(file, 'utf8'));
    } catch (error) {
      throw new ControlPlaneConfigError(
        error instanceof SyntaxError ? say('controlPlane.secretsNotJson', { file }) : say('controlPlane.secretsUnreadable', { file, systemText: (error as Error).message }),
      );
    }
    const parsed = SecretsFileSchema.safeParse(json);
    if (!parsed.success) {
      const fields = parsed.error.issues.map((i) => i.path.join('.') || '(root)').join(', ');
      throw new ControlPlaneConfigError(say('controlPlane.secretsInvalid', { file, fields }));
    }
    if (parsed.data.anthropicApiKey) keys.anthropic = parsed.data.anthropicApiKey;
    if (parsed.data.openaiApiKey) keys.openai = parsed.data.openaiApiKey;
  }
  if (env.ANTHROPIC_API_KEY) keys.anthropic = env.ANTHROPIC_API_KEY;
  if (env.OPENAI_API_KEY) keys.openai = env.OPENAI_API_KEY;
  return keys;
}
