import { randomBytes, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import {
  contentSecurityPolicy,
  encodeFrame,
  WebRequestSchema,
  type WebServerMessage,
} from '../../shared/contract';
import type { EventHub } from '../ipc/event-hub';
import type { Router } from '../ipc/router';
import { readStaticFile } from './static-files';

export interface WebHostOptions {
  router: Router;
  events: EventHub;
  rendererDir: string;
  /** 0 picks a free port. The host always binds 127.0.0.1: the app drives a phone, it is never a LAN service. */
  port?: number;
  /** Defaults to a fresh random token per launch. */
  token?: string;
  /** Per-connection caps; the defaults suit a window (tests lower them). */
  limits?: Partial<ConnectionLimits>;
}

export interface ConnectionLimits {
  /** Requests of one connection being handled at once; more are answered "busy" without running. */
  requestsInFlight: number;
  /**
   * Answers and events not yet taken by the window. A window that stops reading is disconnected here rather
   * than buffered without bound (frames are skipped earlier, at FRAME_BACKLOG_LIMIT).
   */
  unsentBytes: number;
}

export interface WebHost {
  /** The address to open, with the access token in the fragment (never sent to the server in HTTP requests). */
  url: string;
  origin: string;
  port: number;
  token: string;
  /** Open WebSocket connections (windows) right now. */
  readonly connections: number;
  close(): Promise<void>;
}

const HOST = '127.0.0.1';
/** A window that cannot keep up skips frames instead of queueing them: the latest frame wins. */
const FRAME_BACKLOG_LIMIT = 4 * 1024 * 1024;
/** Unsent bytes above which the window counts as busy, so the mirror skips a capture rather than queue it. */
const FRAME_BUSY_BYTES = 512 * 1024;
/** The largest request a window sends is a settings patch or a goal: far below this. */
const MAX_MESSAGE_BYTES = 1024 * 1024;
const DEFAULT_LIMITS: ConnectionLimits = { requestsInFlight: 32, unsentBytes: 16 * 1024 * 1024 };

/** Close codes of this host, each with the plain-words reason sent in the close frame and logged. */
const SLOW_READER = 1008;
const CLOSE_REASONS: Readonly<Record<number, string>> = {
  1002: 'protocol error in a frame',
  1007: 'a text frame was not valid UTF-8',
  [SLOW_READER]: 'the window stopped reading its answers',
  1009: `a message was larger than ${MAX_MESSAGE_BYTES} bytes`,
};

const securityHeaders = {
  'content-security-policy': contentSecurityPolicy,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cache-control': 'no-store',
};

/**
 * The library closes a connection on a bad frame with only a code; this adds the plain-words reason so the
 * window (and a person reading its log) learns why.
 */
class ExplainedWebSocket extends WebSocket {
  override close(code?: number, reason?: string | Buffer): void {
    super.close(code, reason ?? (code === undefined ? undefined : CLOSE_REASONS[code]));
  }
}

function tokensMatch(expected: string, given: string | null): boolean {
  if (given === null) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Serves the built renderer and the router over a WebSocket, on loopback only, guarded by token, Host and Origin. */
export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const server = http.createServer();
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES, WebSocket: ExplainedWebSocket });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, HOST, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  // Both spellings of loopback are accepted; anything else is a DNS-rebinding or cross-site attempt.
  const allowedHosts = new Set([`${HOST}:${port}`, `localhost:${port}`]);
  const allowedOrigins = new Set([...allowedHosts].map((h) => `http://${h}`));

  server.on('request', (req, res) => {
    if (!allowedHosts.has(req.headers.host ?? '')) {
      res.writeHead(403, { 'content-type': 'text/plain' }).end('Forbidden host');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    readStaticFile(options.rendererDir, req.url ?? '/').then(
      (file) => {
        if (!file) {
          res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found. Build the UI with `npm run build`.');
          return;
        }
        res.writeHead(200, { ...securityHeaders, 'content-type': file.contentType });
        res.end(req.method === 'HEAD' ? undefined : file.body);
      },
      () => res.writeHead(500).end(),
    );
  });

  server.on('upgrade', (req, socket, head) => {
    // A client that resets during the handshake must not take the host down. The socket stays the connection's
    // after the upgrade: its errors then are the open connection's.
    let upgraded = false;
    socket.on('error', (error) => logConnectionProblem(upgraded ? 'open' : 'handshake', error));
    const url = new URL(req.url ?? '/', `http://${HOST}:${port}`);
    const refuse = (status: number, reason: string) => {
      socket.end(`HTTP/1.1 ${status} ${reason}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
    };
    if (url.pathname !== '/ws' || !allowedHosts.has(req.headers.host ?? '')) return refuse(404, 'Not Found');
    if (!allowedOrigins.has(req.headers.origin ?? '')) return refuse(403, 'Forbidden');
    if (!tokensMatch(token, url.searchParams.get('token'))) return refuse(401, 'Unauthorized');
    wss.handleUpgrade(req, socket, head, (ws) => {
      upgraded = true;
      attachClient(ws, options, limits);
    });
  });

  return {
    url: `http://${HOST}:${port}/#token=${token}`,
    origin: `http://${HOST}:${port}`,
    port,
    token,
    get connections() {
      return wss.clients.size;
    },
    async close() {
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A window closed, reloaded or lost its network while its connection was in use: what windows do, not a problem. */
const WINDOW_GONE: ReadonlySet<string> = new Set(['ECONNRESET', 'EPIPE']);

function logConnectionProblem(stage: string, error: Error): void {
  if (WINDOW_GONE.has((error as NodeJS.ErrnoException).code ?? '')) return;
  console.warn(`Web host: a window's connection failed (${stage}): ${error.message}`);
}

function attachClient(ws: WebSocket, options: WebHostOptions, limits: ConnectionLimits): void {
  let inFlight = 0;
  const disconnectSlowReader = () => {
    console.warn(`Web host: closing a window's connection (${SLOW_READER}): ${CLOSE_REASONS[SLOW_READER]}.`);
    ws.close(SLOW_READER);
    // A window that does not read would never take the close frame either: drop its buffers now.
    ws.terminate();
  };
  const send = (message: WebServerMessage) => {
    if (ws.readyState !== ws.OPEN) return;
    ws.send(JSON.stringify(message));
    if (ws.bufferedAmount > limits.unsentBytes) disconnectSlowReader();
  };
  const unsubscribeEvents = options.events.subscribe((name, payload) => send({ type: 'event', name, payload }));
  const unsubscribeFrames = options.events.subscribeFrames(
    (meta, bytes) => {
      if (ws.readyState === ws.OPEN && ws.bufferedAmount < FRAME_BACKLOG_LIMIT) ws.send(encodeFrame(meta, bytes));
    },
    { busy: () => ws.bufferedAmount >= FRAME_BUSY_BYTES },
  );

  // Invalid UTF-8, an oversized or malformed frame, a reset: ws closes with a code; this keeps the host alive.
  ws.on('error', (error) => logConnectionProblem('open', error));
  ws.on('message', (data, isBinary) => {
    const request = isBinary ? undefined : parseRequest(data.toString());
    if (!request) {
      send({
        type: 'result',
        id: null,
        result: { ok: false, error: { code: 'invalid_input', message: 'Malformed request: expected JSON {id, method, input}.' } },
      });
      return;
    }
    if (inFlight >= limits.requestsInFlight) {
      const message = `Too many requests at once on this connection (at most ${limits.requestsInFlight}): wait for answers before sending more.`;
      send({ type: 'result', id: request.id, result: { ok: false, error: { code: 'unavailable', message } } });
      return;
    }
    inFlight++;
    void options.router.call(request.method, request.input, { transport: 'web' }).then((result) => {
      inFlight--;
      send({ type: 'result', id: request.id, result });
    });
  });
  ws.on('close', () => {
    unsubscribeEvents();
    unsubscribeFrames();
  });
}

function parseRequest(text: string) {
  try {
    const parsed = WebRequestSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
