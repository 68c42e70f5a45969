import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { AppServices } from '../main/app/create-app';
import { createMcpServer } from './server';

const HOST = '127.0.0.1';
const MAX_BODY_BYTES = 1024 * 1024;
export const MCP_PATH = '/mcp';

export interface McpHttpHost {
  /** e.g. http://127.0.0.1:41234/mcp */
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

/**
 * A fixed bearer token, not OAuth: the challenge says so (RFC 6750), so a client such as mcp-remote reports a wrong
 * token instead of looking for an authorization server that does not exist.
 */
const BEARER_NEEDED = 'Missing or wrong bearer token: send "Authorization: Bearer <token>" with the token `amc mcp --http` printed (or AMC_MCP_TOKEN). This server does not use OAuth.';
const BEARER_CHALLENGE = 'Bearer realm="amc", error="invalid_token", error_description="a bearer token is needed: the one amc mcp --http printed, or AMC_MCP_TOKEN"';

function bearerMatches(expected: string, header: string | undefined): boolean {
  const given = /^Bearer (.+)$/.exec(header ?? '')?.[1];
  if (!given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

function refuse(res: http.ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new Error(`The request is larger than ${MAX_BODY_BYTES} bytes.`);
    chunks.push(chunk);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

/**
 * `amc mcp --http`: the MCP server over Streamable HTTP on loopback only, one MCP session per connected
 * agent. Every request needs `Authorization: Bearer <token>`; a Host or Origin other than loopback
 * (DNS rebinding, a web page) is refused before anything runs.
 */
export async function startMcpHttpHost(app: AppServices, options: { port?: number; token?: string } = {}): Promise<McpHttpHost> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; close(): Promise<void> }>();
  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, HOST, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const allowedHosts = new Set([`${HOST}:${port}`, `localhost:${port}`]);

  const openSession = async (): Promise<StreamableHTTPServerTransport> => {
    const id = randomUUID();
    const { server: mcp, session } = createMcpServer(app, id);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessioninitialized: (sessionId) => void sessions.set(sessionId, { transport, close }),
    });
    let closing: Promise<void> | undefined;
    // Closing the server closes the transport, whose onclose comes back here: once is enough.
    const close = () =>
      (closing ??= (async () => {
        sessions.delete(id);
        await session.close();
        await mcp.close();
      })());
    transport.onclose = () => void close();
    await mcp.connect(transport);
    return transport;
  };

  server.on('request', (req, res) => {
    void (async () => {
      if (!allowedHosts.has(req.headers.host ?? '')) return refuse(res, 403, 'Forbidden host.');
      const origin = req.headers.origin;
      if (origin !== undefined && ![...allowedHosts].some((host) => origin === `http://${host}`)) return refuse(res, 403, 'Forbidden origin.');
      if (new URL(req.url ?? '/', `http://${HOST}`).pathname !== MCP_PATH) return refuse(res, 404, `Not found: the MCP endpoint is ${MCP_PATH}.`);
      if (!bearerMatches(token, req.headers.authorization)) return refuse(res, 401, BEARER_NEEDED, { 'www-authenticate': BEARER_CHALLENGE });
      const sessionId = req.headers['mcp-session-id'];
      const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
      let body: unknown;
      if (req.method === 'POST') {
        try {
          body = await readJson(req);
        } catch (error) {
          return refuse(res, 400, `The request body is not valid JSON: ${(error as Error).message}`);
        }
      }
      if (existing) return existing.transport.handleRequest(req, res, body);
      if (sessionId !== undefined) return refuse(res, 404, 'Unknown or ended MCP session; initialize a new one.');
      if (req.method !== 'POST' || !isInitializeRequest(body)) return refuse(res, 400, 'Start with an initialize request (no session yet).');
      const transport = await openSession();
      return transport.handleRequest(req, res, body);
    })().catch((error: unknown) => {
      if (!res.headersSent) refuse(res, 500, error instanceof Error ? error.message : String(error));
      else res.end();
    });
  });

  return {
    url: `http://${HOST}:${port}${MCP_PATH}`,
    port,
    token,
    async close() {
      await Promise.all([...sessions.values()].map((session) => session.transport.close()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
