// The cheapest HTTP/1.1 both ends a benchmark can have on a small machine: a load generator and a canned-answer
// server on raw sockets, with every request and answer serialised once up front. What they cost per request is
// a small fraction of what the service under test costs, so its workers, not the harness, get the cores.
import net from 'node:net';

const HEADERS_END = Buffer.from('\r\n\r\n');
const CONTENT_LENGTH = /\r\ncontent-length:\s*(\d+)/i;
const CHUNKED = /\r\ntransfer-encoding:\s*chunked/i;
const CONNECTION_CLOSE = /\r\nconnection:\s*close/i;
const GOLDEN_RATIO_FRACTION = (Math.sqrt(5) - 1) / 2;

/** Where one HTTP message ends in `buffer` (from `start`), or -1 while it is still incomplete. */
function messageEnd(buffer: Buffer, start: number): number {
  const headersEnd = buffer.indexOf(HEADERS_END, start);
  if (headersEnd < 0) return -1;
  const head = buffer.toString('latin1', start, headersEnd);
  const bodyStart = headersEnd + HEADERS_END.length;
  const length = CONTENT_LENGTH.exec(head);
  if (length) {
    const end = bodyStart + Number(length[1]);
    return end <= buffer.length ? end : -1;
  }
  if (!CHUNKED.test(head)) return bodyStart;
  // Chunked: sizes in hex, each chunk followed by CRLF; a zero-size chunk (and its CRLF) ends the message.
  let at = bodyStart;
  for (;;) {
    const lineEnd = buffer.indexOf('\r\n', at);
    if (lineEnd < 0) return -1;
    const size = Number.parseInt(buffer.toString('latin1', at, lineEnd), 16);
    at = lineEnd + 2 + size + 2;
    if (at > buffer.length) return -1;
    if (size === 0) return at;
  }
}

/** The status code of the message starting at `start` ("HTTP/1.1 200 ..."). */
function statusAt(buffer: Buffer, start: number): number {
  return Number(buffer.toString('latin1', start + 9, start + 12));
}

/** Calls `onMessage(start, end)` for every complete message in the socket's stream, keeping any partial tail. */
function splitMessages(socket: net.Socket, onMessage: (buffer: Buffer, start: number, end: number) => void): void {
  let pending: Buffer | null = null;
  socket.on('data', (chunk: Buffer) => {
    let buffer = pending ? Buffer.concat([pending, chunk]) : chunk;
    let start = 0;
    for (let end = messageEnd(buffer, start); end >= 0 && start < buffer.length; end = messageEnd(buffer, start)) {
      onMessage(buffer, start, end);
      start = end;
    }
    buffer = buffer.subarray(start);
    pending = buffer.length > 0 ? buffer : null;
  });
}

export interface CannedServer {
  url: string;
  /** Requests answered so far. */
  readonly answered: number;
  close(): Promise<void>;
}

/**
 * Answers every request with the same JSON body, keeping connections open: an instant provider, or with
 * `delayMs` one that takes that long to think on average — each answer waits between half and one and a half
 * times it, as real answers vary, so hosts in a closed loop do not all arrive in the same instant.
 */
export async function startCannedServer(body: unknown, delayMs = 0): Promise<CannedServer> {
  const json = Buffer.from(JSON.stringify(body));
  const answer = Buffer.concat([
    Buffer.from(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${json.length}\r\nconnection: keep-alive\r\n\r\n`),
    json,
  ]);
  let answered = 0;
  // Spread by the golden-ratio sequence over the answers: any run of n answers covers [0, 1) almost evenly, so the
  // load sent straight here and the load sent through the service see the same delays, and their p50s compare.
  const nextSpread = () => (answered * GOLDEN_RATIO_FRACTION) % 1;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    splitMessages(socket, () => {
      answered += 1;
      if (delayMs === 0) socket.write(answer);
      else setTimeout(() => socket.write(answer), delayMs * (0.5 + nextSpread()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get answered() {
      return answered;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export interface LoadRequest {
  url: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

export interface LoadResult {
  /** Milliseconds from writing each request to reading its whole answer (successes only). */
  latencies: number[];
  /** Answers other than 200, and requests cut off by a closed connection. */
  errors: number;
  firstError: string | undefined;
  seconds: number;
}

/**
 * Sends `count` POSTs over `concurrency` keep-alive connections, each sending its next request as soon as the
 * previous answer is read (a closed loop, as hosts waiting for their decision do).
 */
export async function runLoad(request: LoadRequest, count: number, concurrency: number): Promise<LoadResult> {
  const { hostname, port } = new URL(request.url);
  const json = Buffer.from(JSON.stringify(request.body));
  const head = [`POST ${request.path} HTTP/1.1`, `host: ${hostname}:${port}`, `content-length: ${json.length}`, 'content-type: application/json']
    .concat(Object.entries(request.headers).map(([name, value]) => `${name}: ${value}`))
    .join('\r\n');
  const bytes = Buffer.concat([Buffer.from(`${head}\r\n\r\n`), json]);
  const result: LoadResult = { latencies: [], errors: 0, firstError: undefined, seconds: 0 };
  let sent = 0;
  const failed = (reason: string) => {
    result.errors += 1;
    result.firstError ??= reason;
  };

  /** One connection's loop; reconnects when the server closes it (a refusal with `connection: close`). */
  const lane = () =>
    new Promise<void>((resolve) => {
      const socket = net.connect(Number(port), hostname);
      socket.setNoDelay(true);
      let startedAt = 0;
      let waiting = false;
      const next = () => {
        if (sent >= count) {
          socket.end();
          return resolve();
        }
        sent += 1;
        waiting = true;
        startedAt = performance.now();
        socket.write(bytes);
      };
      splitMessages(socket, (buffer, start, end) => {
        waiting = false;
        const status = statusAt(buffer, start);
        if (status === 200) result.latencies.push(performance.now() - startedAt);
        else failed(`HTTP ${status}: ${buffer.toString('utf8', start, Math.min(end, start + 300))}`);
        // The server closes this connection after such an answer: the next request goes on a new one.
        if (CONNECTION_CLOSE.test(buffer.toString('latin1', start, buffer.indexOf(HEADERS_END, start)))) socket.end();
        else next();
      });
      socket.once('connect', next);
      socket.on('error', (error) => failed(error.message));
      socket.once('close', () => {
        if (waiting) failed('connection closed before the answer');
        if (sent < count) void lane().then(resolve);
        else resolve();
      });
    });

  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, lane));
  result.seconds = (performance.now() - started) / 1000;
  return result;
}
