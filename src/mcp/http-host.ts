import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { AppServices } from '../app/create-app';
import { createMcpServer } from './server';
import { DEFAULT_IDLE_TIMEOUT_MS, SessionLiveness } from './session-liveness';
import type { Words } from '../shared/i18n/translate';

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

/** RFC 9110: the auth scheme is case-insensitive (`bearer x` is as good as `Bearer x`). */
function bearerMatches(expected: string, header: string | undefined): boolean {
  const given = /^Bearer +(\S+) *$/i.exec(header ?? '')?.[1];
  if (!given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

function refuse(res: http.ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

class BodyTooLarge extends Error {}

/**
 * How much of an oversized body is read and thrown away before the 413: a client still sending when the answer
 * comes and the connection closes sees a broken pipe instead of the 413. Beyond this, the connection is cut.
 */
const DISCARDED_BODY_BYTES = 16 * MAX_BODY_BYTES;

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > DISCARDED_BODY_BYTES) throw new BodyTooLarge();
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > DISCARDED_BODY_BYTES) throw new BodyTooLarge();
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  }
  if (size > MAX_BODY_BYTES || declared > MAX_BODY_BYTES) throw new BodyTooLarge();
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

/** A live MCP session: its transport, when its client is judged gone or idle, and how it ends. */
interface Session {
  transport: StreamableHTTPServerTransport;
  liveness: SessionLiveness;
  close(): Promise<void>;
}

/**
 * `amc mcp --http`: the MCP server over Streamable HTTP on loopback only, one MCP session per connected
 * agent. Every request needs `Authorization: Bearer <token>`; a Host or Origin other than loopback
 * (DNS rebinding, a web page) is refused before anything runs. A session's phones are handed back as soon as
 * its client is gone (its GET stream closed, no request in flight), and the session ends after
 * `idleTimeoutMs` without a request, so an agent that vanished without DELETE keeps neither phone nor memory.
 */
export async function startMcpHttpHost(
  app: AppServices,
  options: { port?: number; token?: string; idleTimeoutMs?: number; words?: Words } = {},
): Promise<McpHttpHost> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const sessions = new Map<string, Session>();
  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, HOST, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const allowedHosts = new Set([`${HOST}:${port}`, `localhost:${port}`]);

  const openSession = async (): Promise<Session> => {
    const id = randomUUID();
    const { server: mcp, session } = createMcpServer(app, { sessionId: id, idleTimeoutMs, ...(options.words && { words: options.words }) });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessioninitialized: (sessionId) => void sessions.set(sessionId, entry),
    });
    let closing: Promise<void> | undefined;
    // Closing the server closes the transport, whose onclose comes back here: once is enough.
    const close = () =>
      (closing ??= (async () => {
        liveness.stop();
        sessions.delete(id);
        await session.releaseAll();
        await mcp.close();
      })());
    const liveness = new SessionLiveness({
      idleTimeoutMs,
      onGone: () => void session.releaseAll(),
      // Still connected: only its phones go. Gone: the session ends (a later request gets "unknown session").
      onIdle: (connected) => void (connected ? session.releaseAll() : transport.close()),
    });
    const entry: Session = { transport, liveness, close };
    transport.onclose = () => void close();
    await mcp.connect(transport);
    return entry;
  };

  /** Hands the request to its session's transport, counting it (or the GET stream) until its response closes. */
  const handle = (session: Session, req: http.IncomingMessage, res: http.ServerResponse, body: unknown) => {
    const ended = session.liveness.track(req.method === 'GET' ? 'stream' : 'request');
    res.once('close', () => ended(res.statusCode === 200));
    return session.transport.handleRequest(req, res, body);
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
          if (error instanceof BodyTooLarge) return refuse(res, 413, `The request is larger than ${MAX_BODY_BYTES} bytes.`, { connection: 'close' });
          return refuse(res, 400, `The request body is not valid JSON: ${(error as Error).message}`);
        }
      }
      if (existing) return handle(existing, req, res, body);
      if (sessionId !== undefined) return refuse(res, 404, 'Unknown or ended MCP session; initialize a new one.');
      if (req.method !== 'POST' || !isInitializeRequest(body)) return refuse(res, 400, 'Start with an initialize request (no session yet).');
      return handle(await openSession(), req, res, body);
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
