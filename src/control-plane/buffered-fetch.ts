import http from 'node:http';
import https from 'node:https';
import zlib from 'node:zlib';

/** The `fetch` the provider SDKs accept as their transport option. */
export type Fetch = typeof globalThis.fetch;

export interface BufferedFetch {
  fetch: Fetch;
  /** Closes the idle keep-alive connections (at shutdown). */
  close(): void;
}

const IDLE_CONNECTION_MS = 4000;

const DECODERS: Record<string, (body: Buffer) => Buffer> = {
  gzip: (body) => zlib.gunzipSync(body),
  'x-gzip': (body) => zlib.gunzipSync(body),
  deflate: (body) => zlib.inflateSync(body),
  br: (body) => zlib.brotliDecompressSync(body),
};

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error && reason.name === 'AbortError' ? reason : new DOMException('This operation was aborted', 'AbortError');
}

/** What undici's fetch rejects with when the connection fails, so the SDKs report a connection error as they would. */
function fetchFailed(cause: Error): TypeError {
  return new TypeError('fetch failed', { cause });
}

function bodyBytes(body: RequestInit['body']): string | Uint8Array | null | undefined {
  if (body === null || body === undefined || typeof body === 'string' || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  return undefined;
}

/**
 * A `fetch` for the provider SDKs made of node:http and a keep-alive agent: one request written in one go, the
 * answer read into memory and handed back as a standard Response. The SDKs' calls are small JSON requests with
 * small JSON answers, so this spares each decision the WHATWG-stream machinery of Node's built-in fetch (the larger
 * part of the service's CPU per decision). Anything it does not handle (a streamed request body, a Request object)
 * goes to the built-in fetch.
 */
export function createBufferedFetch(fallback: Fetch = globalThis.fetch): BufferedFetch {
  // Idle connections are dropped after a few seconds, as the built-in fetch does, before the provider's side does.
  const keepAlive = { keepAlive: true, timeout: IDLE_CONNECTION_MS };
  const agents = { 'http:': new http.Agent(keepAlive), 'https:': new https.Agent(keepAlive) };

  const bufferedFetch: Fetch = (input, init = {}) => {
    const body = bodyBytes(init.body);
    const url = typeof input === 'string' ? new URL(input) : input instanceof URL ? input : null;
    if (!url || body === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) return fallback(input, init);
    const signal = init.signal ?? undefined;
    if (signal?.aborted) return Promise.reject(abortError(signal));

    return new Promise<Response>((resolve, reject) => {
      const headers: Record<string, string> = {};
      new Headers(init.headers).forEach((value, name) => {
        headers[name] = value;
      });
      if (body !== null) headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
      const transport = url.protocol === 'https:' ? https : http;
      const request = transport.request(url, { method: init.method ?? 'GET', headers, agent: agents[url.protocol as 'http:' | 'https:'] });
      const onAbort = () => request.destroy(abortError(signal!));
      signal?.addEventListener('abort', onAbort, { once: true });
      const settle = () => signal?.removeEventListener('abort', onAbort);
      request.once('error', (error) => {
        settle();
        reject(error.name === 'AbortError' ? error : fetchFailed(error));
      });
      request.once('response', (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.once('error', (error) => {
          settle();
          reject(error.name === 'AbortError' ? error : fetchFailed(error));
        });
        response.once('end', () => {
          settle();
          try {
            resolve(toResponse(response, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
          } catch (error) {
            reject(fetchFailed(error as Error));
          }
        });
      });
      request.end(body ?? undefined);
    });
  };

  return {
    fetch: bufferedFetch,
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}

function toResponse(message: http.IncomingMessage, raw: Buffer): Response {
  const headers = new Headers();
  const pairs = message.rawHeaders;
  for (let i = 0; i < pairs.length; i += 2) headers.append(pairs[i]!, pairs[i + 1]!);
  const status = message.statusCode ?? 502;
  // Built-in fetch hands back the decoded body (and the headers as sent); so does this.
  const encoding = headers.get('content-encoding')?.trim().toLowerCase();
  const decode = encoding ? DECODERS[encoding] : undefined;
  const body = decode ? decode(raw) : raw;
  // 204, 205 and 304 answers may not carry a body in a Response.
  const bodyless = status === 204 || status === 205 || status === 304;
  // Node's buffers are views of plain ArrayBuffers (the DOM typing cannot tell).
  return new Response(bodyless ? null : (body as Uint8Array<ArrayBuffer>), { status, statusText: message.statusMessage ?? '', headers });
}
