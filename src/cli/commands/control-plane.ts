import type { CliCommand, CliIo } from '../command';
import { ExitCode, UsageError } from '../command';
import { parseCommandArgs, parsePort } from '../args';

const USAGE = [
  'amc control-plane [--port N] [--host H] [--config FILE] [--secrets FILE]',
  '       amc control-plane token create [--name N] [--provider anthropic|openai] [--model M] [--config FILE] [--tokens-file FILE]',
  '       amc control-plane token revoke ID [--config FILE] [--tokens-file FILE]',
  '       amc control-plane token list [--json] [--config FILE] [--tokens-file FILE]',
].join('\n');

const storeOptions = { config: { type: 'string' }, 'tokens-file': { type: 'string' } } as const;

// Loaded on demand so `amc --help` does not pay for the server's imports.
async function configModule() {
  return import('../../control-plane/config');
}

/** Turns the service's configuration errors into usage errors (exit code 2). */
async function asUsageErrors<T>(work: () => Promise<T>): Promise<T> {
  const { ControlPlaneConfigError } = await configModule();
  const { TokenStoreError } = await import('../../control-plane/token-store');
  try {
    return await work();
  } catch (error) {
    if (error instanceof ControlPlaneConfigError || error instanceof TokenStoreError) throw new UsageError(error.message);
    throw error;
  }
}

async function tokensFileOf(values: { config?: string; 'tokens-file'?: string }): Promise<string> {
  const { loadControlPlaneConfig } = await configModule();
  const config = await loadControlPlaneConfig({
    ...(values.config ? { configFile: values.config } : {}),
    env: values['tokens-file'] ? { ...process.env, AMC_CP_TOKENS_FILE: values['tokens-file'] } : process.env,
  });
  return config.tokensFile;
}

async function serve(args: string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(args, {
    port: { type: 'string' },
    host: { type: 'string' },
    config: { type: 'string' },
    secrets: { type: 'string' },
  });
  const port = parsePort(values.port, '--port');
  const { loadControlPlaneConfig, loadProviderKeys } = await configModule();
  const { createJsonLogger } = await import('../../control-plane/logger');
  const { startControlPlane } = await import('../../control-plane/server');
  const logger = createJsonLogger((line) => io.out(line.trimEnd()));
  const { config, keys } = await asUsageErrors(async () => ({
    config: await loadControlPlaneConfig({
      ...(values.config ? { configFile: values.config } : {}),
      overrides: { ...(values.host ? { host: values.host } : {}), ...(port !== undefined ? { port } : {}) },
    }),
    keys: await loadProviderKeys({
      ...(values.secrets ? { secretsFile: values.secrets } : {}),
      onInsecureFile: (message) => logger.warn(message),
    }),
  }));
  const service = await asUsageErrors(() => startControlPlane({ config, keys, logger }));

  await new Promise<void>((resolve) => {
    let stopping = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (stopping) {
        // A second Ctrl-C means "now": in-flight decisions are abandoned.
        logger.warn('second signal; exiting without waiting', { signal });
        process.exit(ExitCode.cancelled);
      }
      stopping = true;
      logger.info('signal received; draining', { signal });
      void service.close().then(resolve);
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  });
  return ExitCode.ok;
}

async function token(args: string[], io: CliIo): Promise<number> {
  const [action, ...rest] = args;
  const store = await import('../../control-plane/token-store');
  switch (action) {
    case 'create': {
      const { values } = parseCommandArgs(rest, {
        ...storeOptions,
        name: { type: 'string' },
        provider: { type: 'string' },
        model: { type: 'string' },
      });
      const provider = values.provider;
      if (provider !== undefined && provider !== 'anthropic' && provider !== 'openai') {
        throw new UsageError(`--provider must be "anthropic" or "openai", got "${provider}"`);
      }
      if (values.model !== undefined && !values.model.trim()) throw new UsageError('--model must not be empty');
      const file = await asUsageErrors(() => tokensFileOf(values));
      const { token: secret, record } = await asUsageErrors(() =>
        store.createToken(file, {
          ...(values.name ? { name: values.name } : {}),
          ...(provider ? { provider } : {}),
          ...(values.model ? { model: values.model } : {}),
        }),
      );
      const route = record.provider || record.model ? ` (${record.provider ?? 'default provider'}, ${record.model ?? 'default model'})` : '';
      io.err(`Created token ${record.id} "${record.name}"${route} in ${file}.`);
      io.err('It is shown only this once; give it to the host agent as CONTROL_PLANE_TOKEN:');
      io.out(secret);
      return ExitCode.ok;
    }
    case 'revoke': {
      const { values, positionals } = parseCommandArgs(rest, storeOptions, true);
      if (positionals.length !== 1) throw new UsageError('token revoke takes exactly one token id (see `token list`)');
      const file = await asUsageErrors(() => tokensFileOf(values));
      const record = await asUsageErrors(() => store.revokeToken(file, positionals[0]!));
      io.out(`Revoked token ${record.id} "${record.name}" (since ${record.revokedAt}); it now gets 403.`);
      return ExitCode.ok;
    }
    case 'list': {
      const { values } = parseCommandArgs(rest, { ...storeOptions, json: { type: 'boolean' } });
      const file = await asUsageErrors(() => tokensFileOf(values));
      const records = await asUsageErrors(() => store.listTokens(file));
      // Hashes stay in the file: a listing is for people and scripts, not for verifying tokens.
      const shown = records.map(({ hash: _hash, ...rest }) => rest);
      if (values.json) {
        for (const record of shown) io.out(JSON.stringify(record));
        return ExitCode.ok;
      }
      if (shown.length === 0) {
        io.out(`No tokens in ${file}. Create one with \`amc control-plane token create --name NAME\`.`);
        return ExitCode.ok;
      }
      const rows = shown.map((r) => [
        r.id,
        r.name,
        r.revokedAt ? `revoked ${r.revokedAt}` : 'active',
        r.createdAt,
        [r.provider, r.model].filter(Boolean).join(' ') || '-',
      ]);
      const header = ['ID', 'NAME', 'STATUS', 'CREATED', 'OVERRIDE'];
      const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
      for (const row of [header, ...rows]) io.out(row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd());
      return ExitCode.ok;
    }
    default:
      throw new UsageError(action ? `unknown token action "${action}" (create, revoke or list)` : 'token needs an action: create, revoke or list');
  }
}

export const controlPlaneCommand: CliCommand = {
  name: 'control-plane',
  summary: 'run the Cloud Control Plane (planner decisions for cloud-proxy hosts) or manage its host tokens',
  usage: USAGE,
  async run(args, io) {
    if (args[0] === 'token') return token(args.slice(1), io);
    return serve(args, io);
  },
};
