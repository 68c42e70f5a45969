import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ExitCode, UsageError, type CliCommand } from '../command';
import { parseCommandArgs, parsePort } from '../args';
import { untilStopped } from '../until-stopped';

/** A fixed token for configs that cannot read one from the output (e.g. a client's mcp.json). */
const TokenSchema = z.string().regex(/^[A-Za-z0-9._~+/=-]{16,200}$/, 'must be 16 to 200 characters of letters, digits and ._~+/=-');

export const mcpCommand: CliCommand = {
  name: 'mcp',
  usage: 'amc mcp [--http [--port N]]   (--http: the bearer token is AMC_MCP_TOKEN, else a new one printed at start)',
  async run(args, io) {
    const { values } = parseCommandArgs(args, { http: { type: 'boolean' }, port: { type: 'string' } });
    if (values.port !== undefined && !values.http) throw new UsageError('--port applies to --http only');
    const port = parsePort(values.port, '--port') ?? 0;
    const givenToken = process.env.AMC_MCP_TOKEN;
    const token = givenToken === undefined ? undefined : TokenSchema.safeParse(givenToken);
    if (values.http && token && !token.success) throw new UsageError(`AMC_MCP_TOKEN ${token.error.issues[0]!.message}`);

    const { createApp } = await import('../../main/app/create-app');
    const app = await createApp();
    try {
      if (values.http) {
        const { startMcpHttpHost } = await import('../../mcp/http-host');
        const host = await startMcpHttpHost(app, { port, ...(token?.success && { token: token.data }) });
        io.out(`MCP server (Streamable HTTP) at ${host.url}`);
        io.out(token?.success ? 'Bearer token: the one in AMC_MCP_TOKEN.' : `Bearer token: ${host.token}`);
        io.out('Press Ctrl-C to stop.');
        await untilStopped();
        await host.close();
      } else {
        // stdout carries the protocol: nothing else may be printed there.
        const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
        const { createMcpServer } = await import('../../mcp/server');
        const { server, session } = createMcpServer(app, randomUUID());
        const transport = new StdioServerTransport();
        const closed = new Promise<void>((resolve) => {
          transport.onclose = resolve;
          process.stdin.once('end', resolve);
        });
        await server.connect(transport);
        await untilStopped(closed);
        await session.close();
        await server.close();
      }
    } finally {
      await app.close();
    }
    return ExitCode.ok;
  },
};
