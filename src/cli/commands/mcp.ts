import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ExitCode, UsageError, type CliCommand } from '../command';
import { parseCommandArgs, parsePort } from '../args';
import { untilStopped } from '../until-stopped';
import { DEFAULT_IDLE_TIMEOUT_MS } from '../../mcp/session-liveness';
import { terminalWords } from '../terminal-words';

/** A fixed token for configs that cannot read one from the output (e.g. a client's mcp.json). */
const TokenSchema = z.string().regex(/^[A-Za-z0-9._~+/=-]{16,200}$/);

/** --idle-timeout in seconds (fractions allowed, so tests can wait less than a second), as milliseconds. */
function parseIdleTimeout(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || seconds < 0.1 || seconds > 86_400) {
    throw new UsageError(terminalWords().t('cli:usageError.idleTimeout', { value }));
  }
  return Math.round(seconds * 1000);
}

export const mcpCommand: CliCommand = {
  name: 'mcp',
  usage: 'amc mcp [--http [--port N] [--idle-timeout SECONDS]]',
  moreHelp: async () => terminalWords().t('cli:usageNote.mcpHttp'),
  async run(args, io) {
    const { values } = parseCommandArgs(args, { http: { type: 'boolean' }, port: { type: 'string' }, 'idle-timeout': { type: 'string' } });
    if (values.port !== undefined && !values.http) throw new UsageError(terminalWords().t('cli:usageError.httpOnly', { option: '--port' }));
    if (values['idle-timeout'] !== undefined && !values.http) throw new UsageError(terminalWords().t('cli:usageError.idleTimeoutHttpOnly'));
    const port = parsePort(values.port, '--port') ?? 0;
    const idleTimeoutMs = parseIdleTimeout(values['idle-timeout']);
    const givenToken = process.env.AMC_MCP_TOKEN;
    const token = givenToken === undefined ? undefined : TokenSchema.safeParse(givenToken);
    if (values.http && token && !token.success) throw new UsageError(terminalWords().t('cli:usageError.mcpToken'));

    const { createApp } = await import('../../app/create-app');
    const app = await createApp();
    try {
      if (values.http) {
        const { startMcpHttpHost } = await import('../../mcp/http-host');
        const host = await startMcpHttpHost(app, { port, words: terminalWords(), ...(token?.success && { token: token.data }), ...(idleTimeoutMs !== undefined && { idleTimeoutMs }) });
        const { t } = terminalWords();
        io.out(t('cli:mcpHttp.at', { url: host.url }));
        io.out(token?.success ? t('cli:mcpHttp.givenToken') : t('cli:mcpHttp.newToken', { token: host.token }));
        io.out(t('cli:mcpHttp.idle', { seconds: (idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS) / 1000 }));
        io.out(t('cli:mcpHttp.stop'));
        await untilStopped();
        await host.close();
      } else {
        // stdout carries the protocol: nothing else may be printed there.
        const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
        const { createMcpServer } = await import('../../mcp/server');
        const { server, session } = createMcpServer(app, { sessionId: randomUUID(), idleTimeoutMs: null, words: terminalWords() });
        const transport = new StdioServerTransport();
        const closed = new Promise<void>((resolve) => {
          transport.onclose = resolve;
          process.stdin.once('end', resolve);
        });
        await server.connect(transport);
        await untilStopped(closed);
        await session.releaseAll();
        await server.close();
      }
    } finally {
      await app.close();
    }
    return ExitCode.ok;
  },
};
