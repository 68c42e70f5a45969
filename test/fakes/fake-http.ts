/** Shared plumbing of the loopback provider fakes: one HTTP server on 127.0.0.1, JSON bodies, a request log. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** Parsed JSON body (undefined when the body was not JSON). */
  body: unknown;
  /** Size of the raw body in bytes (what crossed the wire). */
  bytes: number;
}

export interface FakeResponse {
  status: number;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string is sent verbatim. */
  body: unknown;
  /** Announce twice the body's length, send the body, then cut the connection (a reply cut off mid-way). */
  cutOff?: boolean;
}

/** Answers one request; `undefined` means never answer (the connection hangs until the client goes away). */
export type FakeHandler = (request: RecordedRequest) => Promise<FakeResponse | undefined>;

export interface FakeServer {
  /** Base URL without a trailing slash, e.g. http://127.0.0.1:43121 */
  url: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Requests whose connection the client closed before an answer was sent (aborts, timeouts). */
  abandoned(): number;
  close(): Promise<void>;
}

export async function startFakeServer(handle: FakeHandler): Promise<FakeServer> {
  const requests: RecordedRequest[] = [];
  let abandoned = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let body: unknown;
      try {
        body = raw.length ? JSON.parse(raw.toString('utf8')) : undefined;
      } catch {
        body = undefined;
      }
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        path: (req.url ?? '/').split('?')[0]!,
        headers: req.headers,
        body,
        bytes: raw.length,
      };
      requests.push(recorded);
      let answered = false;
      res.on('close', () => {
        if (!answered) abandoned += 1;
      });
      handle(recorded).then(
        (response) => {
          if (!response || res.destroyed) return;
          answered = true;
          const text = typeof response.body === 'string' ? response.body : JSON.stringify(response.body);
          if (response.cutOff) {
            res.writeHead(response.status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text) * 2), ...response.headers });
            res.write(text, () => res.socket?.destroy());
            return;
          }
          res.writeHead(response.status, { 'content-type': 'application/json', ...response.headers });
          res.end(text);
        },
        (error: unknown) => {
          answered = true;
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(`fake server bug: ${error instanceof Error ? error.stack : String(error)}`);
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    abandoned: () => abandoned,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Failures that look the same whichever provider the fake speaks. */
export type TransportFailure =
  /** A 200 response whose body is not the provider's JSON. */
  | { kind: 'garbage-body' }
  /** An HTML error page instead of the provider's JSON error (a proxy or load balancer in the way). */
  | { kind: 'error-page'; status: number; html: string }
  /** A 200 whose headers promise a whole body, but the connection is cut halfway through it. */
  | { kind: 'cut-off' }
  /** Never answers; the connection stays open until the client gives up. */
  | { kind: 'hang' };

export function renderTransportFailure(reply: TransportFailure): FakeResponse | undefined {
  switch (reply.kind) {
    case 'garbage-body':
      return { status: 200, body: '<html>502 Bad Gateway</html>' };
    case 'error-page':
      return { status: reply.status, headers: { 'content-type': 'text/html' }, body: reply.html };
    case 'cut-off':
      return { status: 200, body: '{"id":"cut', cutOff: true };
    case 'hang':
      return undefined;
  }
}
