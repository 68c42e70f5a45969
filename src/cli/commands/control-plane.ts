import cluster from 'node:cluster';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { CliCommand, CliIo } from '../command';
import { ExitCode, UsageError } from '../command';
import { parseCommandArgs, parsePort } from '../args';
import { resolveAmcHome } from '../../core/storage/settings-store';
import type { ControlPlaneConfig } from '../../control-plane/config';
import type { Logger } from '../../control-plane/logger';
import type { RedisStore } from '../../control-plane/redis-store';
import type { TokenAdmin } from '../../control-plane/token-store';
import { textForReader } from '../../shared/said';
import { terminalWords } from '../terminal-words';
import { tableLines } from '../../shared/terminal-columns';

const USAGE = [
  'amc control-plane [--port N] [--host H] [--config FILE] [--secrets FILE] [--tokens FILE | --redis URL]',
  '                  [--workers N] [--metrics-token T]',
  '       amc control-plane token create [--name N] [--provider anthropic|openai] [--model M] [--rate-per-minute R] [--burst B]',
  '                  [--daily-tokens N] [--monthly-tokens N] [--daily-cost USD] [--monthly-cost USD] [STORE]',
  '       amc control-plane token revoke ID|NAME [STORE]',
  '       amc control-plane token list [--json] [STORE]',
  '       amc control-plane usage [--token ID|NAME] [--json] [STORE]',
].join('\n');

const storeOptions = { config: { type: 'string' }, tokens: { type: 'string' }, redis: { type: 'string' } } as const;
type StoreValues = { config?: string; tokens?: string; redis?: string };

// Loaded on demand so `amc --help` does not pay for the server's imports.
async function configModule() {
  return import('../../control-plane/config');
}

/** Turns the service's configuration and store errors into usage errors (exit code 2). */
async function asUsageErrors<T>(work: () => Promise<T>): Promise<T> {
  const { ControlPlaneConfigError } = await configModule();
  const { TokenStoreError } = await import('../../control-plane/token-store');
  try {
    return await work();
  } catch (error) {
    if (error instanceof ControlPlaneConfigError || error instanceof TokenStoreError) throw new UsageError(textForReader(error.message, error.said, terminalWords()));
    throw error;
  }
}

function parseCount(value: string | undefined, optionName: string, min = 1): number | undefined {
  if (value === undefined) return undefined;
  const count = Number(value);
  if (!Number.isInteger(count) || count < min) throw new UsageError(terminalWords().t('cli:usageError.wholeNumberAtLeast', { option: optionName, min, value }));
  return count;
}

function parseAmount(value: string | undefined, optionName: string): number | undefined {
  if (value === undefined) return undefined;
  const amount = Number(value);
  if (!Number.isFinite(amount) || amount <= 0) throw new UsageError(terminalWords().t('cli:usageError.positiveNumber', { option: optionName, value }));
  return amount;
}

async function loadConfig(values: StoreValues & { host?: string; port?: number; workers?: number; 'metrics-token'?: string }) {
  const { loadControlPlaneConfig } = await configModule();
  return asUsageErrors(() =>
    loadControlPlaneConfig({
      ...(values.config ? { configFile: values.config } : {}),
      // The data folder, like the app's settings: never whatever folder the command happens to run in.
      defaultTokensFile: path.join(resolveAmcHome(), 'control-plane', 'tokens.json'),
      defaultWorkers: availableParallelism(),
      overrides: {
        host: values.host,
        port: values.port,
        tokensFile: values.tokens,
        redisUrl: values.redis,
        workers: values.workers,
        metricsToken: values['metrics-token'],
      },
    }),
  );
}

/** The token store the config names: Redis when a URL is set, else the tokens file. */
async function openTokenAdmin(values: StoreValues) {
  const config = await loadConfig(values);
  if (config.redisUrl) {
    const { RedisStore } = await import('../../control-plane/redis-store');
    return { admin: new RedisStore(config.redisUrl), config };
  }
  const { fileTokenAdmin } = await import('../../control-plane/token-store');
  return { admin: fileTokenAdmin(config.tokensFile), config };
}

async function serve(args: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(args, {
    port: { type: 'string' },
    host: { type: 'string' },
    secrets: { type: 'string' },
    workers: { type: 'string' },
    'metrics-token': { type: 'string' },
    ...storeOptions,
  });
  const port = parsePort(values.port, '--port');
  const workers = parseCount(values.workers, '--workers');
  const { loadProviderKeys } = await configModule();
  const { batchedLines, createJsonLogger } = await import('../../control-plane/logger');
  const worker = cluster.isWorker ? { worker: cluster.worker!.id } : {};
  const logger = createJsonLogger(
    batchedLines((text) => io.out(text.trimEnd())),
    worker,
  );
  const config = await loadConfig({ ...values, port, workers });
  const keys = await asUsageErrors(() =>
    loadProviderKeys({
      ...(values.secrets ? { secretsFile: values.secrets } : {}),
      onInsecureFile: (message) => {
        if (!cluster.isWorker) logger.warn(message);
      },
    }),
  );
  if (config.workers > 1 && cluster.isPrimary) return servePrimary(config, logger, io);

  const { startControlPlane } = await import('../../control-plane/server');
  const clustered = cluster.isWorker ? await import('../../control-plane/cluster') : null;
  // A worker on the file store asks its primary for limits, in batches (with Redis, the service batches itself).
  const primaryLimits =
    clustered && !config.redisUrl ? new (await import('../../control-plane/batched-limits')).BatchedLimits(new clustered.PrimaryLimits()) : null;
  const service = await asUsageErrors(() =>
    startControlPlane({
      config,
      keys,
      logger,
      ...(clustered ? { clusterMetrics: clustered.readClusterMetrics } : {}),
      ...(primaryLimits ? { limits: primaryLimits } : {}),
    }),
  );
  if (clustered) {
    clustered.serveAsWorker(service);
    return new Promise<number>(() => undefined);
  }
  sayListening(io, service.url);
  await untilSignal(logger, () => service.close());
  return ExitCode.ok;
}

/** A person at a terminal reads where the service listens in their language; stdout stays the JSON log for collectors. */
function sayListening(io: CliIo, url: string): void {
  if (process.stderr.isTTY) io.err(terminalWords().t('cli:controlPlane.listening', { url }));
}

async function servePrimary(config: ControlPlaneConfig, logger: Logger, io: CliIo): Promise<number> {
  const { startPrimary } = await import('../../control-plane/cluster');
  const { MemoryLimits } = await import('../../control-plane/memory-limits');
  const { usageFileNextTo } = await import('../../control-plane/server');
  const limits = config.redisUrl
    ? null
    : await asUsageErrors(() =>
        MemoryLimits.open(usageFileNextTo(config.tokensFile), (error) => logger.warn('usage file not written', { error: error.message })),
      );
  const primary = await startPrimary({ workers: config.workers, limits, shutdownGraceMs: config.shutdownGraceMs, logger });
  sayListening(io, primary.url);
  await untilSignal(logger, () => primary.stop());
  return ExitCode.ok;
}

/** Resolves after the first SIGTERM/SIGINT has been handled by `stop`; a second one exits at once. */
function untilSignal(logger: Logger, stop: () => Promise<void>): Promise<void> {
  return new Promise<void>((resolve) => {
    let stopping = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (stopping) {
        // A second Ctrl-C means "now": in-flight decisions are abandoned.
        logger.warn('second signal; exiting without waiting', { signal });
        process.exit(ExitCode.cancelled);
      }
      stopping = true;
      logger.info('signal received; draining', { signal });
      void stop().then(() => {
        // Everything is closed; a handle some library still holds must not keep the process past its grace.
        setTimeout(() => process.exit(ExitCode.ok), 200).unref();
        resolve();
      });
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  });
}

function table(io: CliIo, header: string[], rows: string[][]): void {
  for (const line of tableLines(header, rows)) io.out(line);
}

async function withTokenAdmin<T>(values: StoreValues, work: (admin: TokenAdmin) => Promise<T>): Promise<T> {
  const { admin } = await openTokenAdmin(values);
  try {
    return await asUsageErrors(() => work(admin));
  } finally {
    await admin.close();
  }
}

async function token(args: string[], io: CliIo): Promise<number> {
  const [action, ...rest] = args;
  switch (action) {
    case 'create': {
      const { values } = parseCommandArgs(rest, {
        ...storeOptions,
        name: { type: 'string' },
        provider: { type: 'string' },
        model: { type: 'string' },
        'rate-per-minute': { type: 'string' },
        burst: { type: 'string' },
        'daily-tokens': { type: 'string' },
        'monthly-tokens': { type: 'string' },
        'daily-cost': { type: 'string' },
        'monthly-cost': { type: 'string' },
      });
      const provider = values.provider;
      if (provider !== undefined && provider !== 'anthropic' && provider !== 'openai') {
        throw new UsageError(terminalWords().t('cli:usageError.oneOf', { option: '--provider', accepted: 'anthropic, openai', value: provider }));
      }
      if (values.model !== undefined && !values.model.trim()) throw new UsageError(terminalWords().t('cli:usageError.modelNotEmpty'));
      const rate = { requestsPerMinute: parseAmount(values['rate-per-minute'], '--rate-per-minute'), burst: parseCount(values.burst, '--burst') };
      const daily = { tokens: parseCount(values['daily-tokens'], '--daily-tokens'), costUsd: parseAmount(values['daily-cost'], '--daily-cost') };
      const monthly = { tokens: parseCount(values['monthly-tokens'], '--monthly-tokens'), costUsd: parseAmount(values['monthly-cost'], '--monthly-cost') };
      const defined = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
      const quotas = { ...(Object.keys(defined(daily)).length ? { daily: defined(daily) } : {}), ...(Object.keys(defined(monthly)).length ? { monthly: defined(monthly) } : {}) };
      return withTokenAdmin(values, async (admin) => {
        const { token: secret, record } = await admin.create({
          ...(values.name ? { name: values.name } : {}),
          ...(provider ? { provider } : {}),
          ...(values.model ? { model: values.model } : {}),
          ...(Object.keys(defined(rate)).length ? { rateLimit: defined(rate) } : {}),
          ...(Object.keys(quotas).length ? { quotas } : {}),
        });
        const { t } = terminalWords();
        const shownProvider = record.provider ?? t('cli:controlPlaneTokens.defaultProvider');
        const route = record.provider || record.model ? t('cli:controlPlaneTokens.route', { provider: shownProvider, model: record.model ?? t('cli:controlPlaneTokens.defaultModel') }) : '';
        io.err(t('cli:controlPlaneTokens.created', { id: record.id, name: record.name, route, where: admin.where }));
        io.err(t('cli:controlPlaneTokens.shownOnce'));
        (io.secret ?? io.out)(secret);
        return ExitCode.ok;
      });
    }
    case 'revoke': {
      const { values, positionals } = parseCommandArgs(rest, storeOptions, true);
      if (positionals.length !== 1) throw new UsageError(terminalWords().t('cli:usageError.revokeOne'));
      return withTokenAdmin(values, async (admin) => {
        const record = await admin.revoke(positionals[0]!);
        io.out(terminalWords().t('cli:controlPlaneTokens.revoked', { id: record.id, name: record.name, at: record.revokedAt }));
        return ExitCode.ok;
      });
    }
    case 'list': {
      const { values } = parseCommandArgs(rest, { ...storeOptions, json: { type: 'boolean' } });
      return withTokenAdmin(values, async (admin) => {
        // Hashes stay in the store: a listing is for people and scripts, not for verifying tokens.
        const shown = (await admin.list()).map(({ hash: _hash, ...record }) => record);
        if (values.json) {
          for (const record of shown) io.out(JSON.stringify(record));
          return ExitCode.ok;
        }
        const { t } = terminalWords();
        if (shown.length === 0) {
          io.out(t('cli:controlPlaneTokens.none', { where: admin.where }));
          return ExitCode.ok;
        }
        const rows = shown.map((r) => [
          r.id,
          r.name,
          r.revokedAt ? t('cli:controlPlaneTokens.revokedAt', { at: r.revokedAt }) : t('cli:controlPlaneTokens.active'),
          r.createdAt,
          [r.provider, r.model, r.rateLimit || r.quotas ? t('cli:controlPlaneTokens.limits') : undefined].filter(Boolean).join(' ') || '-',
        ]);
        const header = (['id', 'name', 'status', 'created', 'override'] as const).map((column) => t(`cli:controlPlaneTokens.header.${column}`));
        table(io, header, rows);
        return ExitCode.ok;
      });
    }
    default:
      throw new UsageError(action ? terminalWords().t('cli:usageError.unknownTokenAction', { action }) : terminalWords().t('cli:usageError.tokenAction'));
  }
}

async function usage(args: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(args, { ...storeOptions, token: { type: 'string' }, json: { type: 'boolean' } });
  const { findToken } = await import('../../control-plane/token-store');
  const { admin, config } = await openTokenAdmin(values);
  try {
    return await asUsageErrors(async () => {
      const tokens = await admin.list();
      const selected = values.token ? [findToken(tokens, values.token, admin.where)] : tokens;
      const ids = selected.map((t) => t.id);
      let rows;
      if (config.redisUrl) {
        rows = await (admin as RedisStore).usage(ids);
      } else {
        const { readUsageFile } = await import('../../control-plane/memory-limits');
        const { periodKey } = await import('../../control-plane/limits');
        const { usageFileNextTo } = await import('../../control-plane/server');
        const current = new Set([periodKey('day', Date.now()), periodKey('month', Date.now())]);
        rows = (await readUsageFile(usageFileNextTo(config.tokensFile))).filter((r) => ids.includes(r.tokenId) && current.has(r.key));
      }
      const nameOf = new Map(tokens.map((t) => [t.id, t.name]));
      if (values.json) {
        for (const row of rows) io.out(JSON.stringify({ ...row, name: nameOf.get(row.tokenId) }));
        return ExitCode.ok;
      }
      const { t } = terminalWords();
      if (rows.length === 0) {
        io.out(values.token ? t('cli:controlPlaneTokens.noUsageFor', { token: values.token, where: admin.where }) : t('cli:controlPlaneTokens.noUsage', { where: admin.where }));
        return ExitCode.ok;
      }
      const sorted = [...rows].sort((a, b) => `${nameOf.get(a.tokenId)}${a.period}`.localeCompare(`${nameOf.get(b.tokenId)}${b.period}`));
      table(
        io,
        (['token', 'name', 'period', 'decisions', 'inputTokens', 'outputTokens', 'costUsd'] as const).map((column) => t(`cli:controlPlaneTokens.usageHeader.${column}`)),
        sorted.map((r) => [
          r.tokenId,
          nameOf.get(r.tokenId) ?? '?',
          r.key,
          String(r.decisions),
          String(r.inputTokens),
          String(r.outputTokens),
          (r.costMicroUsd / 1_000_000).toFixed(4),
        ]),
      );
      return ExitCode.ok;
    });
  } finally {
    await admin.close();
  }
}

export const controlPlaneCommand: CliCommand = {
  name: 'control-plane',
  // Read when shown, so the line about STORE is in the terminal's language.
  get usage() {
    return `${USAGE}\n${terminalWords().t('cli:usageNote.controlPlaneStore')}`;
  },
  async run(args, io) {
    if (args[0] === 'token') return token(args.slice(1), io);
    if (args[0] === 'usage') return usage(args.slice(1), io);
    return serve(args, io);
  },
};
